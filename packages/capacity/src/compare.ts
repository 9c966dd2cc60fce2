// The "Capacity at HPA max" block of a pull request comment: base vs head simulation of one cluster, in markdown.
import { chartMermaid } from "./chart.ts";
import { parseQuantity } from "./quantity.ts";
import { candidateList } from "./report.ts";
import { groupPending, nodeClaimCount, pendingCount, pendingLabel } from "./scale.ts";
import type { SimulationResult, SweepResult } from "./types.ts";

export interface CompareOptions {
  /** Shown in the heading when the results carry no cluster name. */
  readonly cluster?: string;
  /** The head's replica sweep: drawn as a mermaid chart under the table. */
  readonly headSweep?: SweepResult;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `${n}` : "0";
}

/** Millicores as cores, up to 3 decimals (`6.45`). */
function cores(millis: number): string {
  return String(Math.round(millis) / 1000);
}

/** Bytes as GiB with one decimal (`11.3`). */
function gib(bytes: number): string {
  return (bytes / 2 ** 30).toFixed(1);
}

function signedWith(delta: number, text: (n: number) => string, unit: string): string {
  if (text(Math.abs(delta)) === text(0)) return `0 ${unit}`;
  return `${delta > 0 ? "+" : "-"}${text(Math.abs(delta))} ${unit}`;
}

const BINARY_UNITS: readonly [string, number][] = [["Ki", 2 ** 10], ["Mi", 2 ** 20], ["Gi", 2 ** 30], ["Ti", 2 ** 40], ["Pi", 2 ** 50]];
const DECIMAL_UNITS: readonly [string, number][] = [["k", 1e3], ["M", 1e6], ["G", 1e9], ["T", 1e12], ["P", 1e15]];

/** An amount (millicores for cpu, else base units) in the unit the limit is written in: `1000Gi` -> `986.1Gi`, `1000` -> `992`. */
export function inUnitOf(name: string, limit: string, n: number): string {
  const value = name === "cpu" ? n / 1000 : n;
  const m = /^[+-]?[\d.]+(?:[eE][+-]?\d+)?([a-zA-Z]*)$/.exec(limit.trim());
  const suffix = m?.[1] ?? "";
  if (name === "cpu" && suffix === "m") return `${Math.round(n)}m`;
  const unit = [...BINARY_UNITS, ...DECIMAL_UNITS].find(([s]) => s === suffix);
  const scaled = unit ? value / unit[1] : value;
  return `${Number.isInteger(scaled) ? scaled : Number(scaled.toFixed(1))}${unit ? unit[0] : ""}`;
}

function amount(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  return parseQuantity(text, name === "cpu" ? 1000 : 1);
}

/**
 * Markdown comparing base and head at HPA max: nodes Karpenter would add (per NodePool), NodePool limit headroom,
 * Pending pods, and the head's chart. `undefined` = the cluster does not exist on that side. The block starts with a
 * `###` heading naming the cluster; the caller adds the `##` section heading.
 */
export function compareSimulations(base: SimulationResult | undefined, head: SimulationResult | undefined, options: CompareOptions = {}): string {
  const cluster = head?.cluster ?? base?.cluster ?? options.cluster ?? "cluster";
  const out: string[] = [`### ${cluster}`, ""];
  if (!head) {
    out.push(`Removed in this change (base: ${base!.nodes.length} node-group node(s), ${nodeClaimCount(base!)} NodeClaim(s) at HPA max).`);
    return `${out.join("\n")}\n`;
  }
  const rows: string[][] = [];
  const row = (what: string, b: number | undefined, h: number) => rows.push([what, b === undefined ? "-" : String(b), String(h), b === undefined ? "new" : signed(h - b)]);
  row("node-group nodes", base?.nodes.length, head.nodes.length);
  row("NodeClaims Karpenter would add", base ? nodeClaimCount(base) : undefined, nodeClaimCount(head));
  const byPool = (r: SimulationResult | undefined) => {
    const m = new Map<string, number>();
    for (const c of r?.nodeClaims ?? []) m.set(c.nodePool, (m.get(c.nodePool) ?? 0) + (c.count ?? 1));
    return m;
  };
  const baseByPool = byPool(base);
  const headByPool = byPool(head);
  const pools = [...new Set([...(base?.nodePools ?? []).map((p) => p.name), ...head.nodePools.map((p) => p.name)])].sort();
  for (const name of pools) {
    if (pools.length > 1 || (baseByPool.get(name) ?? 0) !== (headByPool.get(name) ?? 0)) {
      row(`NodeClaims of NodePool \`${name}\``, base ? (baseByPool.get(name) ?? 0) : undefined, headByPool.get(name) ?? 0);
    }
  }
  const sum = (r: SimulationResult | undefined, name: string) =>
    r === undefined ? undefined : r.nodeClaims.reduce((n, c) => n + (amount(name, c.requests[name]) ?? 0) * (c.count ?? 1), 0);
  const cpuRow = (r: SimulationResult | undefined) => sum(r, "cpu");
  const baseCpu = cpuRow(base);
  const headCpu = cpuRow(head)!;
  rows.push(["CPU requested on NodeClaims (cores)", baseCpu === undefined ? "-" : cores(baseCpu), cores(headCpu), baseCpu === undefined ? "new" : signedWith(headCpu - baseCpu, cores, "cores")]);
  const baseMem = sum(base, "memory");
  const headMem = sum(head, "memory")!;
  rows.push(["memory requested on NodeClaims (GiB)", baseMem === undefined ? "-" : gib(baseMem), gib(headMem), baseMem === undefined ? "new" : signedWith(headMem - baseMem, gib, "GiB")]);
  row("pods that stay Pending", base ? pendingCount(base) : undefined, pendingCount(head));
  const changed = rows.some((r) => !/^0( |$)/.test(r[3]!));
  out.push(
    changed
      ? `At HPA max Karpenter would add **${nodeClaimCount(head)}** NodeClaim(s) (base ${base ? nodeClaimCount(base) : "-"}); **${pendingCount(head)}** pod(s) would stay Pending (base ${base ? pendingCount(base) : "-"}).`
      : `No capacity change at HPA max: ${head.nodes.length} node-group node(s), ${nodeClaimCount(head)} NodeClaim(s), ${pendingCount(head)} pod(s) Pending.`,
    "",
    "| | base | head | change |",
    "|---|---:|---:|---:|",
    ...rows.map((r) => `| ${r.join(" | ")} |`),
  );

  // Workloads whose replica count at HPA max changed (a maxReplicas edit, a new or removed workload).
  const baseReplicas = new Map((base?.workloads ?? []).map((w) => [w.workload, w.replicas]));
  const headReplicas = new Map(head.workloads.map((w) => [w.workload, w.replicas]));
  const moved = [...new Set([...baseReplicas.keys(), ...headReplicas.keys()])]
    .sort()
    .filter((w) => baseReplicas.get(w) !== headReplicas.get(w));
  if (base && moved.length > 0) {
    out.push("", "| workload | base replicas | head replicas |", "|---|---:|---:|");
    for (const w of moved) out.push(`| ${w} | ${baseReplicas.get(w) ?? "-"} | ${headReplicas.get(w) ?? "-"} |`);
  }

  const headroom: string[] = [];
  for (const p of head.nodePools) {
    const b = base?.nodePools.find((x) => x.name === p.name);
    for (const name of Object.keys(p.limits).sort()) {
      const limit = p.limits[name]!;
      const h = amount(name, p.headroom[name])!;
      const bhText = b?.headroom[name];
      const bh = amount(name, bhText);
      const fmt = (n: number) => (name === "nodes" ? String(n) : inUnitOf(name, limit, n));
      const delta = bh !== undefined && bh !== h ? ` (${h > bh ? "+" : "-"}${fmt(Math.abs(h - bh))})` : "";
      headroom.push(`| \`${p.name}\` | ${name} | ${limit} | ${bh === undefined ? "-" : fmt(bh)} | ${fmt(h)}${delta} |`);
    }
  }
  if (headroom.length > 0) {
    out.push(
      "",
      "NodePool limit headroom (limits minus the capacity of the type each NodeClaim likely launches as):",
      "",
      "| NodePool | resource | limit | base headroom | head headroom |",
      "|---|---|---:|---:|---:|",
      ...headroom,
    );
  }
  if (head.nodeClaims.length > 0) {
    out.push("", "| NodeClaim (head) | CPU (cores) | memory (GiB) | pods | candidates |", "|---|---:|---:|---:|---|");
    for (const c of head.nodeClaims) {
      out.push(`| ${c.count ? `${c.name} (${c.count}, each)` : c.name} | ${cores(amount("cpu", c.requests.cpu) ?? 0)} | ${gib(amount("memory", c.requests.memory) ?? 0)} | ${c.requests.pods ?? "0"} | ${c.instanceTypes.length}: ${candidateList(c.instanceTypes)} |`);
    }
  }
  if (head.pending.length > 0) {
    out.push("", "| Pending pod (head) | reason | why |", "|---|---|---|");
    for (const p of groupPending(head.pending)) out.push(`| ${pendingLabel(p)} | ${p.reason} | ${p.message.replaceAll("|", "\\|")} |`);
  }
  if (options.headSweep) out.push("", chartMermaid(options.headSweep));
  return `${out.join("\n")}\n`;
}
