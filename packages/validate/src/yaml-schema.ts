// js-yaml's core schema (YAML 1.2: null, bool, int, float), resolved faster: one implicit type that looks
// at a plain scalar's first character before trying the four core resolvers in their usual order. Most
// plain scalars in Kubernetes YAML (names, label keys, images, quantities like "4Gi") cannot begin a
// number, bool or null, and js-yaml would test each of the four resolvers on them, one regex included:
// about a quarter of its parse time. Hand-written because js-yaml has no such option; the results are
// identical to CORE_SCHEMA's (see yaml-schema.test.ts).
import * as jsYaml from "js-yaml";
import { FAILSAFE_SCHEMA, type Schema, Type } from "js-yaml";

// js-yaml exports its built-in types at run time; @types/js-yaml does not declare them
const { types } = jsYaml as unknown as { types: Record<"null" | "bool" | "int" | "float", Type> };
const CORE_SCALARS = [types.null, types.bool, types.int, types.float];

/** Characters that can begin a core-schema null (`~`, `null`), bool, int or float (`.inf`, `-1`, `+0x1f`...). */
const MAY_RESOLVE = new Uint8Array(128);
for (const c of "~nNtTfF0123456789+-.") MAY_RESOLVE[c.charCodeAt(0)] = 1;

// js-yaml calls construct() right after a successful resolve() of the same scalar
let matched: Type | undefined;

const coreScalar = new Type("tag:yaml.org,2002:eks-gitops-core-scalar", {
  kind: "scalar",
  resolve(data: string | null): boolean {
    if (data !== null && data.length > 0) {
      const c = data.charCodeAt(0);
      if (c >= 128 || MAY_RESOLVE[c] === 0) return false;
    }
    for (const type of CORE_SCALARS) {
      if ((type.resolve as (d: string | null) => boolean)(data)) {
        matched = type;
        return true;
      }
    }
    return false;
  },
  construct(data: string | null): unknown {
    const type = matched as Type;
    matched = undefined;
    return (type.construct as (d: string | null) => unknown)(data);
  },
});

/** Same documents as js-yaml's CORE_SCHEMA; explicit `!!null`, `!!bool`, `!!int`, `!!float` tags still work. */
export const FAST_CORE_SCHEMA: Schema = FAILSAFE_SCHEMA.extend({ implicit: [coreScalar], explicit: [...CORE_SCALARS] });
