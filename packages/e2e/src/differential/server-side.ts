// The API server's side of the differential: dry-run server-side apply of many objects, a few at a time.
import type { KubernetesObject } from "@kubernetes/client-node";
import { applyVerdict, createVerdict, type RawObjectApi } from "../harness/apply.ts";
import { type Outcome, serverOutcome } from "./verdicts.ts";

/**
 * Outcomes in input order, by dry-run `create` (POST: the semantics the validator follows) or server-side `apply`.
 * `concurrency` requests in flight (the server is local; more only adds contention).
 */
export async function serverOutcomes(
  api: RawObjectApi,
  objects: readonly KubernetesObject[],
  verb: "create" | "apply" = "create",
  concurrency = 4,
): Promise<Outcome[]> {
  const out: Outcome[] = new Array(objects.length);
  let next = 0;
  const worker = async () => {
    while (next < objects.length) {
      const i = next++;
      try {
        const object = objects[i] as KubernetesObject;
        const verdict = verb === "create" ? await createVerdict(api, object, { dryRun: true }) : await applyVerdict(api, object, { dryRun: true });
        out[i] = serverOutcome(verdict);
      } catch (err) {
        out[i] = serverOutcome({ thrown: (err as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}
