// Test helper: the committed eksworkshop instance-type snapshot (ap-southeast-1), the data every unit test of the
// simulation reads. It was written by `eks-gitops capacity refresh` against moto 5.2.5; `pnpm e2e`
// (packages/cli/src/commands/capacity.emulator.test.ts) checks it is still what moto answers.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseSnapshot } from "../snapshot.ts";
import type { InstanceTypeSnapshot } from "../types.ts";

const ROOT = resolve(import.meta.dirname, "../../../..");

/** Repository-relative path of the committed snapshot. */
export const LAB_SNAPSHOT_FILE = "clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json";

let cached: InstanceTypeSnapshot | undefined;

/** The committed ap-southeast-1 snapshot (896 instance types, 3 zones), parsed and checked once. */
export function labSnapshot(): InstanceTypeSnapshot {
  cached ??= parseSnapshot(readFileSync(join(ROOT, LAB_SNAPSHOT_FILE), "utf8"), LAB_SNAPSHOT_FILE);
  return cached;
}
