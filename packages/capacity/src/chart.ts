// The replica sweep as a picture: an SVG file and a mermaid `xychart-beta` block GitHub draws in a PR comment.
//
// The SVG is written by hand: the chart is a few bars and one or two lines, and the charting libraries with a
// permissive licence (vega, chart.js, d3) either need a DOM/canvas or bring megabytes and non-deterministic ids; a
// hand-written document is byte-identical on every run, which the committed output and the tests rely on.
import type { SweepResult } from "./types.ts";

function niceMax(n: number): number {
  if (n <= 5) return 5;
  const step = n <= 10 ? 2 : n <= 50 ? 5 : n <= 100 ? 10 : 10 ** Math.floor(Math.log10(n));
  return Math.ceil(n / step) * step;
}

function escapeXml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** Bars: nodes (node groups, and Karpenter's NodeClaims stacked on top); lines: Pending pods before Karpenter, and pods that stay Pending. */
export function chartSvg(sweep: SweepResult): string {
  const points = sweep.points;
  const width = 720;
  const height = 360;
  const left = 56;
  const right = 24;
  const top = 48;
  const bottom = 64;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const maxY = niceMax(points.reduce((m, p) => Math.max(m, p.existingNodes + p.nodeClaims, p.pendingBeforeKarpenter, p.pending), 1));
  const slot = plotW / Math.max(points.length, 1);
  const barW = Math.max(2, slot * 0.6);
  const y = (v: number) => top + plotH - (v / maxY) * plotH;
  const x = (i: number) => left + slot * i + slot / 2;
  const labelEvery = Math.max(1, Math.ceil(points.length / 20));
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${escapeXml(`${sweep.cluster ? `${sweep.cluster}: ` : ""}${sweep.workload}: nodes and Pending pods by replicas`)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="14">${escapeXml(`${sweep.workload}: nodes and Pending pods by replicas`)}</text>`,
  ];
  const ticks = 5;
  for (let i = 0; i <= ticks; i++) {
    const v = (maxY / ticks) * i;
    out.push(`<line x1="${left}" y1="${num(y(v))}" x2="${width - right}" y2="${num(y(v))}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${left - 8}" y="${num(y(v) + 4)}" text-anchor="end">${num(v)}</text>`);
  }
  points.forEach((p, i) => {
    const bx = num(x(i) - barW / 2);
    const bw = num(barW);
    out.push(`<rect x="${bx}" y="${num(y(p.existingNodes))}" width="${bw}" height="${num(y(0) - y(p.existingNodes))}" fill="#9db4d6"><title>${p.replicas} replicas: ${p.existingNodes} node-group node(s)</title></rect>`);
    if (p.nodeClaims > 0) {
      const top_ = y(p.existingNodes + p.nodeClaims);
      out.push(`<rect x="${bx}" y="${num(top_)}" width="${bw}" height="${num(y(p.existingNodes) - top_)}" fill="#e8a33d"><title>${p.replicas} replicas: ${p.nodeClaims} NodeClaim(s)</title></rect>`);
    }
    // At most ~20 replica labels, so they stay readable on long HPA ranges; the last one always.
    if (i % labelEvery === 0 || i === points.length - 1) out.push(`<text x="${num(x(i))}" y="${height - bottom + 18}" text-anchor="middle">${p.replicas}</text>`);
  });
  const line = (values: number[], color: string, dash: string) => {
    const d = values.map((v, i) => `${i === 0 ? "M" : "L"}${num(x(i))},${num(y(v))}`).join(" ");
    out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ""}/>`);
    values.forEach((v, i) => {
      out.push(`<circle cx="${num(x(i))}" cy="${num(y(v))}" r="3" fill="${color}"/>`);
    });
  };
  line(points.map((p) => p.pendingBeforeKarpenter), "#c0392b", "");
  const stays = points.some((p) => p.pending > 0);
  if (stays) line(points.map((p) => p.pending), "#6c3483", "6 4");
  out.push(`<text x="${left + plotW / 2}" y="${height - bottom + 38}" text-anchor="middle">replicas of ${escapeXml(sweep.workload)}</text>`);
  const legend: [string, string][] = [
    ["#9db4d6", "node-group nodes"],
    ["#e8a33d", "Karpenter NodeClaims"],
    ["#c0392b", "Pending until Karpenter's nodes join"],
    ...(stays ? ([["#6c3483", "stay Pending"]] as [string, string][]) : []),
  ];
  // Each entry as wide as its label (about 6.5 px a character at 12 px), so the longer names do not overlap.
  let lx = 16;
  for (const [color, label] of legend) {
    out.push(`<rect x="${lx}" y="${height - 18}" width="12" height="12" fill="${color}"/>`);
    out.push(`<text x="${lx + 18}" y="${height - 8}">${escapeXml(label)}</text>`);
    lx += 18 + Math.ceil(label.length * 6.5) + 14;
  }
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

/** A fenced mermaid `xychart-beta` block: bars = nodes (node groups + NodeClaims), line = Pending pods before Karpenter. */
export function chartMermaid(sweep: SweepResult): string {
  const points = sweep.points;
  const nodes = points.map((p) => p.existingNodes + p.nodeClaims);
  const pending = points.map((p) => p.pendingBeforeKarpenter);
  const stays = points.map((p) => p.pending);
  const maxY = niceMax([nodes, pending, stays].reduce((m, list) => list.reduce((x, v) => Math.max(x, v), m), 1));
  const stay = stays.some((v) => v > 0);
  const title = `${sweep.workload}: nodes (bars); pods Pending until Karpenter's nodes join (line)${stay ? "; pods that stay Pending (2nd line)" : ""}`.replaceAll('"', "'");
  const lines = [
    "```mermaid",
    "xychart-beta",
    `    title "${title}"`,
    `    x-axis "replicas" [${points.map((p) => p.replicas).join(", ")}]`,
    `    y-axis "count" 0 --> ${maxY}`,
    `    bar [${nodes.join(", ")}]`,
    `    line [${pending.join(", ")}]`,
  ];
  if (stay) lines.push(`    line [${stays.join(", ")}]`);
  lines.push("```");
  // xychart-beta draws no legend: say what each series is under the chart.
  lines.push(
    "",
    `Bars: nodes (node-group nodes + Karpenter's NodeClaims). Line: pods Pending until Karpenter's nodes join, then Running${stay ? "; second line: pods that stay Pending (no NodePool can run them)" : ""}.${points.length > 1 && points.some((p, i) => i > 0 && p.replicas !== points[i - 1]!.replicas + 1) ? " Replica counts are sampled where the node count or Pending changes." : ""}`,
  );
  return lines.join("\n");
}
