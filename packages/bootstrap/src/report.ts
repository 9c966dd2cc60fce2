// Plan and result output: `[+] [~] [-]` lines grouped with IAM first and a summary line, or JSON for machines.
import { createColors } from "picocolors";
import type { StepResult } from "./execute.ts";
import type { Group, Plan } from "./plan.ts";

const GROUP_TITLE: Record<Group, string> = {
  iam: "IAM",
  "discovery-tags": "Discovery tags",
  "node-identity": "Node identity",
  addons: "EKS add-ons",
  "interruption-queue": "Interruption queue",
};

export interface Colors {
  readonly add: (s: string) => string;
  readonly change: (s: string) => string;
  readonly remove: (s: string) => string;
  readonly dim: (s: string) => string;
}

export const NO_COLOR: Colors = { add: (s) => s, change: (s) => s, remove: (s) => s, dim: (s) => s };
const paint = createColors(true);
export const ANSI: Colors = { add: paint.green, change: paint.yellow, remove: paint.red, dim: paint.dim };

/** Counts per marker, e.g. `2 to add, 1 to change, 0 to remove`. */
export function summarize(plan: Plan): string {
  const n = (m: string) => plan.changes.filter((c) => c.marker === m).length;
  return `${n("+")} to add, ${n("~")} to change, ${n("-")} to remove`;
}

/** The plan as text lines. The order of groups is the order of execution. */
export function formatPlan(plan: Plan, colors: Colors = NO_COLOR): string[] {
  const lines = [`${plan.action} plan for cluster ${plan.cluster} (account ${plan.account}, region ${plan.region})`];
  let group: Group | undefined;
  for (const c of plan.changes) {
    if (c.group !== group) {
      group = c.group;
      lines.push("", GROUP_TITLE[group]);
    }
    const paint = c.marker === "+" ? colors.add : c.marker === "~" ? colors.change : colors.remove;
    lines.push(paint(`  [${c.marker}] ${c.resource}: ${c.detail}`));
  }
  if (plan.changes.length === 0) lines.push("", "No changes: AWS already matches the overlay.");
  if (plan.notes.length > 0) lines.push("", "Notes", ...plan.notes.map((n) => `  [!] ${n}`));
  if (plan.blockers.length > 0) lines.push("", "Refusing to proceed", ...plan.blockers.map((b) => `  [x] ${b}`));
  lines.push("", `Plan: ${summarize(plan)}.`);
  return lines;
}

export function formatStep(r: StepResult, colors: Colors = NO_COLOR): string {
  const c = r.change;
  const head = `[${c.marker}] ${c.resource}: ${c.detail}`;
  if (!r.ok) return colors.remove(`failed  ${head}: ${r.message}`);
  return `done    ${head}${r.message ? colors.dim(` (${r.message})`) : ""}`;
}

/** JSON shape of `--output json` (operations carry the exact documents sent). */
export function planJson(plan: Plan, results?: readonly StepResult[], status?: string): unknown {
  return {
    action: plan.action,
    cluster: plan.cluster,
    account: plan.account,
    region: plan.region,
    ...(status ? { status } : {}),
    summary: summarize(plan),
    changes: plan.changes.map((c) => ({ marker: c.marker, group: c.group, resource: c.resource, detail: c.detail, operation: c.op })),
    notes: plan.notes,
    blockers: plan.blockers,
    ...(results ? { results: results.map((r) => ({ marker: r.change.marker, resource: r.change.resource, detail: r.change.detail, ok: r.ok, ...(r.message ? { message: r.message } : {}) })) } : {}),
  };
}
