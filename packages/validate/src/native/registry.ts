// The native stage's registry: one check function per built-in group/kind, grouped by API group module.
import type { Reporter } from "./report.ts";
import type { Obj } from "./values.ts";

export interface NativeContext {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly report: Reporter;
}

/** Validates one decoded object of its kind (create semantics); reports through `report`, never throws on bad shapes. */
export type NativeCheck = (object: Obj, report: Reporter, ctx: NativeContext) => void;

/** One API group module: `{ group: "apps", kinds: { Deployment: validateDeployment, ... } }` (`(object, report, ctx) => void`). */
export interface NativeGroup {
  readonly group: string;
  readonly kinds: Readonly<Record<string, NativeCheck>>;
}

export class NativeRegistry {
  private readonly checks = new Map<string, NativeCheck>();

  constructor(groups: readonly NativeGroup[] = []) {
    for (const g of groups) for (const [kind, check] of Object.entries(g.kinds)) this.register(g.group, kind, check);
  }

  register(group: string, kind: string, check: NativeCheck): void {
    const key = `${group}/${kind}`;
    if (this.checks.has(key)) throw new Error(`native check for ${key} registered twice`);
    this.checks.set(key, check);
  }

  lookup(group: string, kind: string): NativeCheck | undefined {
    return this.checks.get(`${group}/${kind}`);
  }
}
