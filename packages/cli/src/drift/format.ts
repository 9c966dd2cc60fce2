// The drift report as text, Markdown (the lead section of the pull-request comment) and a JSON-ready object.
import type { DriftFinding, DriftReport, DriftVerdict } from "./drift.ts";

const VERDICT: Record<DriftVerdict, string> = {
  drifts: "replaces nodes",
  "drifts-once-resolved": "replaces nodes once resolved",
  "may-drift": "may replace nodes",
  "no-drift": "no drift",
  new: "new",
  removed: "removed",
};

function headline(report: DriftReport): string {
  const replacing = report.findings.filter((f) => f.verdict !== "no-drift" && f.verdict !== "new");
  if (report.findings.length === 0) return "No NodePool or EC2NodeClass changed: no node is replaced.";
  if (replacing.length === 0) return `${report.findings.length} Karpenter object(s) changed; none replaces existing nodes.`;
  const pools = [...new Set(replacing.flatMap((f) => f.nodePools.map((p) => `${f.cluster}/${p}`)))].sort();
  return `${replacing.length} change(s) replace existing nodes (NodeClaims of NodePool ${pools.join(", ") || "none"}).`;
}

function hashLine(f: DriftFinding): string | undefined {
  if (!f.hash) return undefined;
  const same = f.hash.base === f.hash.head;
  return `${f.hash.annotation} (${f.hash.version}): ${f.hash.base}${same ? " (unchanged)" : ` -> ${f.hash.head}`}`;
}

function paceCounts(p: DriftReport["pace"][number]): string {
  if (p.nodeClaims.length === 0) return "NodeClaims: not simulated";
  return p.nodeClaims.map((c) => `${c.count} NodeClaim(s) at ${c.at} (${c.atOnce} at a time)`).join(", ");
}

export function formatDriftText(report: DriftReport): string {
  const lines = ["Node replacement (drift)", `  ${headline(report)}`];
  for (const f of report.findings) {
    lines.push(`  ${f.cluster}: ${f.kind} ${f.name}: ${VERDICT[f.verdict]}`);
    for (const r of f.reasons) lines.push(`    ${r}`);
    const h = hashLine(f);
    if (h) lines.push(`    ${h}`);
    if (f.noDrift.length > 0) lines.push(`    does not drift: ${f.noDrift.join(", ")}`);
  }
  for (const p of report.pace) {
    lines.push(`  Pace for NodePool ${p.cluster}/${p.nodePool}: ${paceCounts(p)}`);
    for (const b of p.budgets) lines.push(`    budget: ${b}`);
  }
  return `${lines.join("\n")}\n`;
}

const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

export function formatDriftMarkdown(report: DriftReport): string {
  const out = ["## Node replacement (drift)", "", `**${headline(report)}**`];
  if (report.findings.length > 0) {
    out.push("", "| cluster | object | verdict | why |", "|---|---|---|---|");
    for (const f of report.findings) {
      const why = [...f.reasons, ...(f.noDrift.length > 0 ? [`does not drift: ${f.noDrift.join(", ")}`] : [])].map(cell).join("<br>");
      out.push(`| ${cell(f.cluster)} | ${f.kind} \`${cell(f.name)}\` | ${VERDICT[f.verdict]} | ${why} |`);
    }
    const hashes = report.findings.map((f) => [f, hashLine(f)] as const).filter(([, h]) => h !== undefined);
    if (hashes.length > 0) {
      out.push("", "Hash annotations Karpenter v1.14.1 writes (static drift when they differ):", "");
      for (const [f, h] of hashes) out.push(`- ${f.kind} \`${cell(f.name)}\`: \`${h}\``);
    }
  }
  if (report.pace.length > 0) {
    out.push("", "### Pace of replacement (disruption budgets)", "", "| cluster | NodePool | NodeClaims (simulated) | budgets that apply to drift |", "|---|---|---|---|");
    for (const p of report.pace) out.push(`| ${cell(p.cluster)} | \`${cell(p.nodePool)}\` | ${cell(paceCounts(p))} | ${p.budgets.map(cell).join("<br>")} |`);
  }
  return `${out.join("\n")}\n`;
}
