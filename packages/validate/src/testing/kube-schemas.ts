// Writes the pinned catalog in the layouts the Go test peers read: kubectl-validate's --local-schemas/--local-crds folders.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fetchPinned, selectReleases } from "../catalog/index.ts";

/**
 * `<dir>/schemas/api/v1.json`, `<dir>/schemas/apis/<group>/<version>.json` (the Kubernetes 1.36 OpenAPI v3 documents)
 * and `<dir>/crds/*.yaml` (the pinned CRDs). Returns both folders.
 */
export async function writeKubectlValidateSchemas(dir: string, crdFilter: (path: string) => boolean = () => true): Promise<{ schemas: string; crds: string }> {
  const schemas = join(dir, "schemas");
  const crds = join(dir, "crds");
  mkdirSync(crds, { recursive: true });
  for (const release of selectReleases()) {
    for (const file of release.files) {
      const base = file.path.split("/").pop()!;
      if (file.format === "crd") {
        if (!crdFilter(file.path)) continue;
        writeFileSync(join(crds, base), await fetchPinned(file));
        continue;
      }
      // api__v1_openapi.json -> api/v1.json; apis__apps__v1_openapi.json -> apis/apps/v1.json
      const parts = base.replace(/_openapi\.json$/, "").split("__");
      const target = join(schemas, ...parts.slice(0, -1), `${parts.at(-1)}.json`);
      mkdirSync(join(target, ".."), { recursive: true });
      writeFileSync(target, await fetchPinned(file));
    }
  }
  return { schemas, crds };
}
