// Overlays without rendered output: with no paths given, validate reports each one instead of skipping it.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CLUSTER_FILE, CLUSTERS_DIR, RENDERED_DIR, SYNTH_COMMAND } from "@eks-gitops/config/layout";
import { listClusters } from "@eks-gitops/config/load";
import type { UnreadableDocument } from "./types.ts";

/** What a `synth` killed part-way leaves beside rendered/ (see packages/cli/src/swap.ts). */
const LEFTOVER = new RegExp(`^${RENDERED_DIR}\\.(tmp|old)-\\d+$`);

/** One error document per overlay of `root` that has no rendered/ folder (shown relative to the root). */
export function missingRenderedOutput(root: string): UnreadableDocument[] {
  const out: UnreadableDocument[] = [];
  for (const name of listClusters(root)) {
    const overlay = join(root, CLUSTERS_DIR, name);
    if (existsSync(join(overlay, RENDERED_DIR))) continue;
    const leftovers = readdirSync(overlay).filter((e) => LEFTOVER.test(e)).sort();
    const left = leftovers.length > 0 ? `; an interrupted synth left ${leftovers.join(", ")} (the next \`${SYNTH_COMMAND}\` recovers them)` : "";
    out.push({
      file: `${CLUSTERS_DIR}/${name}/${RENDERED_DIR}`,
      index: 0,
      findings: [
        {
          severity: "error",
          path: "",
          message: `overlay ${CLUSTERS_DIR}/${name}/${CLUSTER_FILE} has no rendered output${left}`,
          rule: "rendered:missing",
          hint: `run \`${SYNTH_COMMAND} --cluster ${name}\` and commit the result`,
        },
      ],
    });
  }
  return out;
}
