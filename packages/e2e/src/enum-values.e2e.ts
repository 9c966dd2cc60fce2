// The validator's table of built-in enum values (ENUM_VALUES, generated from the Go `+enum` types of k8s.io/api) must be
// what test-tools/value-enums generates and what the kube-apiserver under test publishes at /openapi/v3 for every
// GA group-version the catalog pins (the pinned OpenAPI files themselves carry no enum).
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CATALOG, DEFAULT_VERSIONS, ENUM_VALUES, ENUM_VALUES_SOURCE, VALUE_ENUM_SOURCE } from "@eks-gitops/validate";
import { describe, expect, inject, it } from "vitest";
import { liveOpenApi } from "./differential/openapi-constraints.ts";
import { REPO_ROOT } from "./harness/repo.ts";

interface Node {
  type?: string;
  enum?: unknown[];
  items?: Node;
  additionalProperties?: Node | boolean;
  properties?: Record<string, Node>;
}

/** `api__v1_openapi.json` → `api/v1`, `apis__storage.k8s.io__v1_openapi.json` → `apis/storage.k8s.io/v1`. */
const groupVersionOf = (path: string) =>
  path
    .replace(/^.*\//, "")
    .replace(/_openapi\.json$/, "")
    .split("__")
    .join("/");

/** Every enum the documents publish: definition → field → values (direct, list items, map values). */
function publishedEnums(docs: readonly { components?: { schemas?: Record<string, Node> } }[]): Record<string, Record<string, unknown[]>> {
  const out: Record<string, Record<string, unknown[]>> = {};
  for (const doc of docs) {
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      for (const [field, prop] of Object.entries(schema.properties ?? {})) {
        const node = prop.enum ? prop : prop.items?.enum ? prop.items : typeof prop.additionalProperties === "object" && prop.additionalProperties.enum ? prop.additionalProperties : undefined;
        if (!node?.enum) continue;
        out[name] ??= {};
        (out[name] as Record<string, unknown[]>)[field] = node.enum;
      }
    }
  }
  return out;
}

const GENERATED = join(REPO_ROOT, "packages", "validate", "src", "schema", "enum-values.ts");
const release = CATALOG.find((r) => r.project === "kubernetes" && r.version === DEFAULT_VERSIONS.kubernetes);
const groupVersions = (release?.files ?? []).map((f) => groupVersionOf(f.path));

describe("the generated table of built-in enum values", () => {
  it("is generated from the k8s.io/api version kube-apiserver is built with", () => {
    const goMod = readFileSync(join(REPO_ROOT, "test-tools", "kube", "apiserver", "go.mod"), "utf8");
    const pinned = /^\s*k8s\.io\/api => k8s\.io\/api (v\S+)/m.exec(goMod)?.[1];
    expect(ENUM_VALUES_SOURCE).toBe(`k8s.io/api@${pinned}`);
    expect(ENUM_VALUES_SOURCE).toBe(VALUE_ENUM_SOURCE);
  });

  it("equals what the live server publishes at /openapi/v3, for every pinned GA group-version", async () => {
    expect(groupVersions).toHaveLength(22);
    const docs = await liveOpenApi(inject("kubeconfigPath"), groupVersions);
    const live = publishedEnums(docs);
    // both ways, over the definitions these group-versions serve (the table also lists alpha/beta types)
    const definitions = new Set(docs.flatMap((d) => Object.keys((d as { components?: { schemas?: object } }).components?.schemas ?? {})));
    const ours = Object.fromEntries(Object.entries(ENUM_VALUES).filter(([def]) => definitions.has(def)));
    expect(ours).toEqual(live);
    expect(Object.keys(live).length).toBeGreaterThan(50);
  });

  // Needs Go and the module in the Go module cache (there whenever test-tools/build.sh built kube-apiserver).
  const go = spawnSync("go", ["env", "GOMODCACHE"], { encoding: "utf8" });
  const cache = go.status === 0 ? go.stdout.trim() : "";
  // the directories the generated file's header names (k8s.io/api, and the apiextensions types the server also serves)
  const header = existsSync(GENERATED) ? readFileSync(GENERATED, "utf8") : "";
  const dirs = [...header.matchAll(/"\$\(go env GOMODCACHE\)\/([^"]+)"/g)].map((m) => join(cache, m[1] as string));
  it.skipIf(!cache || dirs.length < 2 || !dirs.every((d) => existsSync(d)))("is what `test-tools/value-enums -values` generates (not edited by hand)", () => {
    expect(dirs[0]).toBe(join(cache, ENUM_VALUES_SOURCE));
    const run = spawnSync("go", ["run", ".", "-values", ...dirs], { cwd: join(REPO_ROOT, "test-tools", "value-enums"), encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe(header);
  }, 120_000);
});
