// Reports of a simulation: text tables, JSON and markdown (with the sweep as a mermaid chart).
import { chartMermaid } from "./chart.ts";
import { formatGiB, parseQuantity } from "./quantity.ts";
import { type CostReport, HOURS_PER_MONTH } from "./cost.ts";
import { groupPending, nodeClaimCount, pendingCount, pendingLabel } from "./scale.ts";
import type { ConsolidationNote, NodeClaimResult, PendingPod, SimulationResult, SweepResult } from "./types.ts";

/** Pending entries as listed: one per pod, or, for a long list, one per run of identical pods. */
function listedPending(r: SimulationResult): PendingPod[] {
  return r.pending.length > 20 ? groupPending(r.pending) : [...r.pending];
}

export type ReportFormat = "text" | "json" | "markdown";

export interface ReportExtras {
  readonly sweep?: SweepResult;
  readonly consolidation?: readonly ConsolidationNote[];
  /** What the nodes cost at one or more replica points, e.g. `HPA min` and `HPA max`. */
  readonly cost?: readonly { readonly at: string; readonly report: CostReport }[];
  /** `source, date` of the snapshot's prices, shown beside every snapshot price. */
  readonly pricesLabel?: string;
}

/** How many candidate names a report lists, as Karpenter's `created nodeclaim` log line does (provisioner.go instanceTypeList). */
export const LISTED_CANDIDATES = 5;

/** `c3.2xlarge, c3.4xlarge, c3.8xlarge, c4.2xlarge, c4.4xlarge and 344 other(s)`, the way Karpenter logs them. */
export function candidateList(names: readonly string[]): string {
  const shown = names.slice(0, LISTED_CANDIDATES).join(", ");
  return names.length > LISTED_CANDIDATES ? `${shown} and ${names.length - LISTED_CANDIDATES} other(s)` : shown;
}

function requestsText(requests: Readonly<Record<string, string>>): string {
  return Object.entries(requests)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
}

function table(rows: readonly (readonly string[])[], indent = "  "): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, cell.length);
    });
  }
  return rows.map((row) => `${indent}${row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")}`.trimEnd());
}

/** Memory of a node table cell: GiB with one decimal, so requested and allocatable read alike. */
function gib(q: string | undefined): string {
  return formatGiB(q === undefined ? 0 : parseQuantity(q));
}

function price(n: number): string {
  return `$${n.toFixed(4)}/h`;
}

function usd(n: number): string {
  return `$${n.toFixed(n < 100 ? 4 : 2)}`;
}

function costLineText(l: CostReport["lines"][number]): string[] {
  const what = `${l.kind === "nodeClaim" ? "NodeClaim" : "node group"} ${l.name}`;
  const type = `${l.count} x ${l.instanceType} ${l.capacityType}`;
  return [what, type, l.hourly === undefined ? "no price" : `${usd(l.hourly)}/h`, l.hourly === undefined ? "" : `${usd(l.hourly * HOURS_PER_MONTH)}/month`, l.quote ? `${l.quote.source} (${l.quote.date})` : ""];
}

function costText(cost: NonNullable<ReportExtras["cost"]>): string[] {
  const out = ["", `Cost (USD; a month is ${HOURS_PER_MONTH} h)`];
  out.push(...table([["AT", "NODES", "PER HOUR", "PER MONTH", "UNPRICED"], ...cost.map((c) => [c.at, String(c.report.lines.reduce((s, l) => s + l.count, 0)), usd(c.report.hourly), usd(c.report.monthly), String(c.report.unpriced.length)])]));
  // Every price names its source and date: as a numbered note, listed once below.
  const notes: string[] = [];
  const note = (l: CostReport["lines"][number]) => {
    if (!l.quote) return "";
    const text = `${l.quote.source} (${l.quote.date})`;
    if (!notes.includes(text)) notes.push(text);
    return `[${notes.indexOf(text) + 1}]`;
  };
  for (const c of cost) {
    out.push(`  at ${c.at}:`);
    out.push(...table(c.report.lines.map((l) => [...costLineText(l).slice(0, 4), note(l)]), "    "));
  }
  out.push(...notes.map((n, i) => `  [${i + 1}] ${n}`));
  return out;
}

function costMarkdown(cost: NonNullable<ReportExtras["cost"]>): string[] {
  const out = ["", "### Cost", "", `USD; a month is ${HOURS_PER_MONTH} h.`, "", "| at | nodes | per hour | per month | unpriced |", "|---|---:|---:|---:|---:|"];
  for (const c of cost) out.push(`| ${cell(c.at)} | ${c.report.lines.reduce((s, l) => s + l.count, 0)} | ${usd(c.report.hourly)} | ${usd(c.report.monthly)} | ${c.report.unpriced.length} |`);
  const last = cost[cost.length - 1];
  if (last) {
    out.push("", `| node (at ${cell(last.at)}) | type | per hour | per month | price source (date) |`, "|---|---|---:|---:|---|");
    for (const l of last.report.lines) out.push(`| ${costLineText(l).map(cell).join(" | ")} |`);
  }
  return out;
}

function claimLines(c: NodeClaimResult, pricesLabel: string): string[] {
  const lines = [
    c.count ? `${c.count} identical NodeClaims ${c.name}: requests ${requestsText(c.requests)} each` : `NodeClaim ${c.name}: requests ${requestsText(c.requests)}`,
    c.count ? `  pods: ${c.pods.length} each (the first: ${c.pods[0]}..${c.pods.at(-1)})` : `  pods: ${c.pods.join(", ")}`,
    `  instance types (${c.instanceTypes.length} candidates): ${candidateList(c.instanceTypes)}`,
    ...c.firstCandidates.map((f) => `    ${f.instanceType}: allocatable ${requestsText(f.allocatable)}`),
    `  capacity types: ${c.capacityTypes.join(", ")}; zones: ${c.zones.join(", ")}`,
  ];
  if (c.cheapest) lines.push(`  cheapest-looking: ${c.cheapest.instanceType} ${c.cheapest.capacityType} in ${c.cheapest.zone} at ${price(c.cheapest.price)} (${pricesLabel})`);
  return lines;
}

function summaryLine(r: SimulationResult): string {
  const nodes = r.nodes.length;
  return `${nodes} existing node(s), ${nodeClaimCount(r)} NodeClaim(s) Karpenter would add, ${pendingCount(r)} pod(s) that stay Pending`;
}

function formatText(r: SimulationResult, extras: ReportExtras): string {
  const out: string[] = [`Capacity simulation${r.cluster ? ` of ${r.cluster}` : ""} (${r.region})`, ""];
  out.push("Workloads");
  out.push(
    ...table([
      ["WORKLOAD", "REPLICAS", "ON NODE GROUPS", "PENDING", "ON NEW NODECLAIMS", "STAY PENDING"],
      ...r.workloads.map((w) => [w.workload, String(w.replicas), String(w.onExistingNodes), String(w.onNodeClaims + w.pending), String(w.onNodeClaims), String(w.pending)]),
    ]),
  );
  out.push(...unmodelledLines(r, "  "));
  const groups = [...new Set(r.nodes.map((n) => n.nodeGroup))];
  for (const g of groups) {
    const nodes = r.nodes.filter((n) => n.nodeGroup === g);
    const first = nodes[0]!;
    out.push("", `Node group ${g}: ${nodes.length} x ${first.instanceType} ${first.capacityType} (allocatable ${requestsText(first.allocatable)})`);
    out.push(
      ...table([
        ["NODE", "ZONE", "CPU", "MEMORY", "PODS", "WORKLOAD PODS"],
        ...nodes.map((n) => [
          n.name,
          n.zone,
          `${n.requested.cpu ?? "0"}/${n.allocatable.cpu ?? "0"}`,
          `${gib(n.requested.memory)}/${gib(n.allocatable.memory)}`,
          `${n.requested.pods ?? "0"}/${n.allocatable.pods ?? "0"}`,
          String(n.pods.length),
        ]),
      ]),
    );
  }
  for (const p of r.nodePools) {
    const claims = r.nodeClaims.filter((c) => c.nodePool === p.name);
    const limits = Object.keys(p.limits).length > 0 ? `limits ${requestsText(p.limits)}, headroom ${requestsText(p.headroom)}` : "no limits";
    out.push("", `NodePool ${p.name} (weight ${p.weight}, ${limits}; ${p.consolidationPolicy} after ${p.consolidateAfter}): ${nodeClaimCount({ nodeClaims: claims })} NodeClaim(s)`);
    for (const c of claims) out.push(...claimLines(c, extras.pricesLabel ?? "source not recorded").map((l) => `  ${l}`));
  }
  out.push("", `Pending: ${pendingCount(r)}`);
  if (r.pending.length > 0) out.push(...table([["POD", "REASON", "WHY"], ...listedPending(r).map((p) => [pendingLabel(p), p.reason, p.message])]));
  if (extras.consolidation && extras.consolidation.length > 0) {
    out.push("", "Consolidation after scale-down");
    for (const c of extras.consolidation) out.push(`  ${c.message}`);
  }
  if (extras.sweep) {
    out.push("", `Replica sweep of ${extras.sweep.workload}`);
    out.push(
      ...table([
        ["REPLICAS", "NODES", "NEW NODECLAIMS", "PENDING BEFORE KARPENTER", "STAY PENDING"],
        ...extras.sweep.points.map((p) => [String(p.replicas), String(p.existingNodes + p.nodeClaims), String(p.nodeClaims), String(p.pendingBeforeKarpenter), String(p.pending)]),
      ]),
    );
  }
  if (extras.cost && extras.cost.length > 0) out.push(...costText(extras.cost));
  out.push("", summaryLine(r));
  return `${out.join("\n")}\n`;
}

function cell(s: string): string {
  return s.replaceAll("|", "\\|");
}

/** One line per workload constraint and EC2NodeClass setting the simulation leaves out (WorkloadResult.unmodelled, SimulationResult.unmodelled). */
function unmodelledLines(r: SimulationResult, indent: string): string[] {
  return [...r.workloads.flatMap((w) => (w.unmodelled ?? []).map((u) => `${indent}not modelled: ${w.workload} ${u}`)), ...(r.unmodelled ?? []).map((u) => `${indent}not modelled: ${u}`)];
}

function formatMarkdown(r: SimulationResult, extras: ReportExtras): string {
  const out: string[] = [`## Capacity simulation${r.cluster ? `: ${r.cluster}` : ""} (${r.region})`, "", summaryLine(r), ""];
  out.push("| workload | replicas | on node groups | Pending | on new NodeClaims | stay Pending |", "|---|---:|---:|---:|---:|---:|");
  for (const w of r.workloads) out.push(`| ${cell(w.workload)} | ${w.replicas} | ${w.onExistingNodes} | ${w.onNodeClaims + w.pending} | ${w.onNodeClaims} | ${w.pending} |`);
  const notModelled = unmodelledLines(r, "- ");
  if (notModelled.length > 0) out.push("", ...notModelled);
  if (r.nodes.length > 0) {
    out.push("", "| node | group | type | zone | cpu | memory | pods |", "|---|---|---|---|---:|---:|---:|");
    for (const n of r.nodes) {
      out.push(
        `| ${n.name} | ${n.nodeGroup} | ${n.instanceType} ${n.capacityType} | ${n.zone} | ${n.requested.cpu ?? "0"}/${n.allocatable.cpu} | ${gib(n.requested.memory)}/${gib(n.allocatable.memory)} | ${n.requested.pods ?? "0"}/${n.allocatable.pods} |`,
      );
    }
  }
  for (const p of r.nodePools) {
    const claims = r.nodeClaims.filter((c) => c.nodePool === p.name);
    const limits = Object.keys(p.limits).length > 0 ? `limits ${requestsText(p.limits)}, headroom ${requestsText(p.headroom)}` : "no limits";
    out.push("", `### NodePool \`${p.name}\`: ${nodeClaimCount({ nodeClaims: claims })} NodeClaim(s)`, "", `Weight ${p.weight}, ${limits}; ${p.consolidationPolicy} after ${p.consolidateAfter}.`);
    if (claims.length > 0) {
      out.push("", "| NodeClaim | requests | pods | candidates | cheapest-looking |", "|---|---|---:|---|---|");
      for (const c of claims) {
        const cheapest = c.cheapest ? `${c.cheapest.instanceType} ${c.cheapest.capacityType} ${c.cheapest.zone} ${price(c.cheapest.price)} (${cell(extras.pricesLabel ?? "source not recorded")})` : "(no prices)";
        out.push(`| ${c.count ? `${c.name} (${c.count} identical)` : c.name} | ${requestsText(c.requests)}${c.count ? " each" : ""} | ${c.pods.length}${c.count ? " each" : ""} | ${c.instanceTypes.length}: ${candidateList(c.instanceTypes)} | ${cheapest} |`);
      }
      out.push("", "| candidate | allocatable |", "|---|---|");
      for (const c of claims) for (const f of c.firstCandidates) out.push(`| ${f.instanceType} | ${requestsText(f.allocatable)} |`);
    }
  }
  if (r.pending.length > 0) {
    out.push("", "### Pending pods", "", "| pod | reason | why |", "|---|---|---|");
    for (const p of listedPending(r)) out.push(`| ${cell(pendingLabel(p))} | ${p.reason} | ${cell(p.message)} |`);
  }
  if (extras.cost && extras.cost.length > 0) out.push(...costMarkdown(extras.cost));
  if (extras.consolidation && extras.consolidation.length > 0) {
    out.push("", "### Consolidation after scale-down", "");
    for (const c of extras.consolidation) out.push(`- ${c.message}`);
  }
  if (extras.sweep) out.push("", `### Replica sweep of \`${extras.sweep.workload}\``, "", chartMermaid(extras.sweep));
  return `${out.join("\n")}\n`;
}

/** The report of a simulation as text (tables), JSON (the result itself) or markdown. */
export function formatSimulation(result: SimulationResult, format: ReportFormat, extras: ReportExtras = {}): string {
  if (format === "json") {
    const doc = { ...result, ...(extras.consolidation ? { consolidation: extras.consolidation } : {}), ...(extras.sweep ? { sweep: extras.sweep } : {}), ...(extras.cost ? { cost: extras.cost } : {}) };
    return `${JSON.stringify(doc, null, 2)}\n`;
  }
  return format === "markdown" ? formatMarkdown(result, extras) : formatText(result, extras);
}
