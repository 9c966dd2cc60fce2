// The API server's side of the differential: dry-run server-side apply of many objects, a few at a time.
import type { KubernetesObject } from "@kubernetes/client-node";
import { applyVerdict, type RawObjectApi } from "../harness/apply.ts";
import { type Outcome, serverOutcome } from "./verdicts.ts";

/** Outcomes in input order; `concurrency` requests in flight (the server is local; more only adds contention). */
export async function serverOutcomes(api: RawObjectApi, objects: readonly KubernetesObject[], concurrency = 4): Promise<Outcome[]> {
  const out: Outcome[] = new Array(objects.length);
  let next = 0;
  const worker = async () => {
    while (next < objects.length) {
      const i = next++;
      try {
        out[i] = serverOutcome(await applyVerdict(api, objects[i] as KubernetesObject, { dryRun: true }));
      } catch (err) {
        out[i] = serverOutcome({ thrown: (err as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return out;
}
