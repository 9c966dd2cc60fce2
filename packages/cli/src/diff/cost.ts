// The cost rows of the pull-request comment's capacity section: base against head at HPA min and max, with price sources.
import type { CostReport } from "@eks-gitops/capacity";

export interface CostAtMinMax {
  readonly min: CostReport;
  readonly max: CostReport;
}

function usd(n: number): string {
  return `$${n.toFixed(2)}`;
}

function signedUsd(n: number): string {
  const r = Math.round(n * 100) / 100;
  return r > 0 ? `+${usd(r)}` : r < 0 ? `-${usd(-r)}` : "$0.00";
}

function cell(s: string): string {
  return s.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/**
 * A Markdown table of what the nodes cost per hour and per month (730 h) on base and head, at HPA min and max, with the
 * change; then every price source and date used. `base` undefined: the cluster is new in this change.
 */
export function costTable(base: CostAtMinMax | undefined, head: CostAtMinMax): string {
  const out = ["| cost (USD) | base | head | change |", "|---|---:|---:|---:|"];
  for (const at of ["min", "max"] as const) {
    const [b, h] = [base?.[at], head[at]];
    out.push(`| per hour at HPA ${at} | ${b ? usd(b.hourly) : "-"} | ${usd(h.hourly)} | ${b ? signedUsd(h.hourly - b.hourly) : "new"} |`);
    out.push(`| per month at HPA ${at} | ${b ? usd(b.monthly) : "-"} | ${usd(h.monthly)} | ${b ? signedUsd(h.monthly - b.monthly) : "new"} |`);
  }
  const reports = [head.min, head.max, ...(base ? [base.min, base.max] : [])];
  const sources = [...new Set(reports.flatMap((r) => r.sources))].sort();
  const unpriced = [...new Set(reports.flatMap((r) => r.unpriced))].sort();
  out.push("", `Prices: ${sources.map(cell).join("; ") || "none"}. NodeClaims at the offering Karpenter most likely launches (cheapest compatible).`);
  if (unpriced.length > 0) out.push("", `Not priced (no source has the type): ${unpriced.map(cell).join(", ")}.`);
  return `${out.join("\n")}\n`;
}
