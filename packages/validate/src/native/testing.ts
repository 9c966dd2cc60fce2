// Test helper for the group modules: runs one kind's native check and returns `pointer message [rule]` lines.
import type { NativeGroup } from "./registry.ts";
import { Reporter } from "./report.ts";

export function runNative(group: NativeGroup, object: Record<string, unknown>): string[] {
  const kind = String(object.kind);
  const check = group.kinds[kind];
  if (!check) throw new Error(`${group.group} has no check for ${kind}`);
  const report = new Reporter();
  check(object, report, { group: group.group, version: "v1", kind, report });
  return report.findings.map((f) => `${f.path} ${f.message} [${f.rule}]`);
}
