import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { chartMermaid, chartSvg } from "./chart.ts";
import { compareSimulations, inUnitOf } from "./compare.ts";
import { candidateList, formatSimulation } from "./report.ts";
import { scaleDown, summarizeWorkload, sweep } from "./scenario.ts";
import { simulate } from "./simulate.ts";
import { labInput } from "./testing/lab.ts";
import { labSnapshot } from "./testing/region-snapshot.ts";
import type { SimulationInput } from "./types.ts";

const snapshot = labSnapshot();
const NGINX = "nlb-app-karpenter/nginx-deployment";
const lab = labInput(12);
const result = simulate(lab, snapshot);
const labSweep = sweep(lab, snapshot, { workload: NGINX });
const consolidation = scaleDown(lab, snapshot, { workload: NGINX, from: 12, to: 1 });

describe("sweep and scale-down", () => {
  it("walks the HPA range 3..12: Karpenter adds a node from 10 replicas on", () => {
    expect(labSweep.points.map((p) => p.replicas)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(labSweep.points.map((p) => p.nodeClaims)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 1, 1]);
    expect(labSweep.points.map((p) => p.pendingBeforeKarpenter)).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 2, 3]);
    expect(labSweep.points.every((p) => p.existingNodes === 3 && p.pending === 0)).toBe(true);
  });

  it("12 -> 1 leaves the Karpenter node empty: consolidated after 1m", () => {
    expect(consolidation).toEqual([
      {
        nodeClaim: "default-1",
        nodePool: "default",
        consolidationPolicy: "WhenEmptyOrUnderutilized",
        consolidateAfter: "1m",
        state: "empty",
        message: `default-1 is empty after ${NGINX} 12 -> 1: WhenEmptyOrUnderutilized deletes it after 1m (consolidateAfter; decision delete, reason Empty)`,
      },
    ]);
  });

  it("keeps an empty node when consolidateAfter is Never, and finds underutilized ones", () => {
    const never: SimulationInput = { ...lab, nodePools: [{ ...lab.nodePools[0]!, disruption: { consolidationPolicy: "WhenEmpty", consolidateAfter: "Never" } }] };
    expect(scaleDown(never, snapshot, { workload: NGINX, from: 12, to: 1 })[0]!.message).toBe(
      `default-1 is empty after ${NGINX} 12 -> 1, but consolidateAfter is Never: it stays until it expires`,
    );
    // Another workload frees node-group room: of the two c5.2xlarge NodeClaims, one becomes Underutilized.
    const other = { namespace: "x", name: "batch", replicas: 3, requests: { cpu: "2", memory: "4G" } };
    const input: SimulationInput = {
      ...lab,
      workloads: [lab.workloads[0]!, lab.workloads[1]!, other, lab.workloads[2]!],
      nodePools: [{ ...lab.nodePools[0]!, requirements: [{ key: "node.kubernetes.io/instance-type", operator: "In", values: ["c5.2xlarge"] }] }],
    };
    expect(simulate(input, snapshot).nodeClaims.map((c) => c.pods.length)).toEqual([3, 3]);
    expect(scaleDown(input, snapshot, { workload: "x/batch", from: 3, to: 0 }).map((n) => [n.nodeClaim, n.state])).toEqual([
      ["default-1", "underutilized"],
      ["default-2", "kept"],
    ]);
  });

  it("summarises a workload as the lab reads it", () => {
    expect(summarizeWorkload(result, NGINX)).toBe(`${NGINX} at 12 replicas: 9 Running on existing nodes, 3 Pending (3 run once Karpenter's NodeClaims join)`);
  });
});

describe("formatSimulation", () => {
  it("text: tables per workload, node group and NodePool, with Karpenter's candidate list", () => {
    const text = formatSimulation(result, "text", { sweep: labSweep, consolidation });
    const lines = text.split("\n");
    expect(lines[0]).toBe("Capacity simulation of eksworkshop (ap-southeast-1)");
    expect(lines).toContain("  nlb-app-karpenter/nginx-deployment  12        9               3        3                  0");
    expect(lines).toContain("Node group ng-ondemand: 3 x t3.2xlarge on-demand (allocatable cpu 7910m, ephemeral-storage 17Gi, memory 29317Mi, pods 58)");
    expect(lines).toContain("  ng-ondemand-3  ap-southeast-1c  6450m/7910m  11.3Gi/28.6Gi  10/58  6");
    expect(lines).toContain("NodePool default (weight 0, limits cpu 1000, memory 1000Gi, headroom cpu 992, memory 1009792Mi; WhenEmptyOrUnderutilized after 1m): 1 NodeClaim(s)");
    expect(lines).toContain("  NodeClaim default-1: requests cpu 6450m, memory 12160432128, pods 7");
    expect(lines).toContain("    instance types (349 candidates): c3.2xlarge, c3.4xlarge, c3.8xlarge, c4.2xlarge, c4.4xlarge and 344 other(s)");
    expect(lines).toContain("      c4.2xlarge: allocatable cpu 7910m, ephemeral-storage 17Gi, memory 13215Mi, pods 58");
    expect(lines).toContain(`  default-1 is empty after ${NGINX} 12 -> 1: WhenEmptyOrUnderutilized deletes it after 1m (consolidateAfter; decision delete, reason Empty)`);
    expect(lines).toContain("  12        4      1               3                         0");
    expect(lines.at(-2)).toBe("3 existing node(s), 1 NodeClaim(s) Karpenter would add, 0 pod(s) that stay Pending");
    expect(formatSimulation(result, "text", { sweep: labSweep, consolidation })).toBe(text);
  });

  it("markdown: tables and the sweep as a mermaid chart", () => {
    const md = formatSimulation(result, "markdown", { sweep: labSweep });
    expect(md.startsWith("## Capacity simulation: eksworkshop (ap-southeast-1)\n")).toBe(true);
    expect(md).toContain(
      "| default-1 | cpu 6450m, memory 12160432128, pods 7 | 3 | 349: c3.2xlarge, c3.4xlarge, c3.8xlarge, c4.2xlarge, c4.4xlarge and 344 other(s) | (no prices) |",
    );
    expect(md).toContain(chartMermaid(labSweep));
    expect(md).toContain("| c4.2xlarge | cpu 7910m, ephemeral-storage 17Gi, memory 13215Mi, pods 58 |");
  });

  it("json: the result itself, plus the extras", () => {
    const doc = JSON.parse(formatSimulation(result, "json", { consolidation }));
    expect(doc.nodeClaims[0].requests).toEqual({ cpu: "6450m", memory: "12160432128", pods: "7" });
    expect(doc.consolidation[0].state).toBe("empty");
    expect(doc.sweep).toBeUndefined();
  });

  it("lists pending pods with their reason", () => {
    const r = simulate({ ...lab, nodePools: [{ ...lab.nodePools[0]!, limits: { cpu: "4" } }] }, snapshot);
    const text = formatSimulation(r, "text");
    // One 4-CPU NodeClaim takes one pod; the other two wait for the limit.
    expect(text).toContain("Pending: 2\n  POD                                    REASON         WHY\n");
    expect(text).toContain("  nlb-app-karpenter/nginx-deployment-11  limit-reached  fits no existing node; NodePool default: limits reached (cpu 4 of 4)\n");
    expect(r.nodeClaims[0]!.instanceTypes.length).toBeGreaterThan(1);
  });

  it("is the sample the package README shows", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const start = readme.indexOf("```\nCapacity simulation of eksworkshop") + 4;
    expect(readme.slice(start, readme.indexOf("```", start))).toBe(formatSimulation(result, "text", { consolidation }));
  });

  it("candidateList counts the rest as Karpenter does", () => {
    expect(candidateList(["a", "b"])).toBe("a, b");
    expect(candidateList(["a", "b", "c", "d", "e", "f", "g"])).toBe("a, b, c, d, e and 2 other(s)");
  });
});

describe("charts", () => {
  it("mermaid xychart-beta: nodes as bars, Pending pods as a line", () => {
    expect(chartMermaid(labSweep)).toBe(
      [
        "```mermaid",
        "xychart-beta",
        "    title \"nlb-app-karpenter/nginx-deployment: nodes (bars); pods Pending until Karpenter's nodes join (line)\"",
        '    x-axis "replicas" [3, 4, 5, 6, 7, 8, 9, 10, 11, 12]',
        '    y-axis "count" 0 --> 5',
        "    bar [3, 3, 3, 3, 3, 3, 3, 4, 4, 4]",
        "    line [0, 0, 0, 0, 0, 0, 0, 1, 2, 3]",
        "```",
        "",
        "Bars: nodes (node-group nodes + Karpenter's NodeClaims). Line: pods Pending until Karpenter's nodes join, then Running.",
      ].join("\n"),
    );
  });

  it("SVG: one bar per replica count, NodeClaims stacked, deterministic", () => {
    const svg = chartSvg(labSweep);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" width="720" height="360"')).toBe(true);
    expect(svg.endsWith("</svg>\n")).toBe(true);
    expect(svg.match(/node-group node\(s\)<\/title>/g)).toHaveLength(10);
    expect(svg).toContain("<title>12 replicas: 1 NodeClaim(s)</title>");
    expect(svg.match(/<circle /g)).toHaveLength(10);
    expect(svg).not.toContain("stay Pending");
    expect(chartSvg(labSweep)).toBe(svg);
    // 38 points (3..40): every second replica count is labelled, and the last.
    const long = chartSvg(sweep(labInput(40), snapshot, { workload: NGINX, from: 3, to: 40 }));
    expect(long.match(/text-anchor="middle">\d+<\/text>/g)).toHaveLength(20);
    // Tags balance: every opened element is closed.
    const opened = (svg.match(/<(svg|rect|text|title|path|line|circle)\b(?:[^>]*[^/])?>/g) ?? []).length;
    const closed = (svg.match(/<\/(svg|rect|text|title|path|line|circle)>/g) ?? []).length;
    expect(opened).toBe(closed);
  });
});

describe("compareSimulations", () => {
  it("shows what raising maxReplicas from 12 to 40 costs", () => {
    const head = simulate(labInput(40), snapshot);
    const md = compareSimulations(result, head);
    expect(md.startsWith("### eksworkshop\n\nAt HPA max Karpenter would add **1** NodeClaim(s) (base 1); **0** pod(s) would stay Pending (base 0).\n")).toBe(true);
    expect(md).toContain("| NodeClaims Karpenter would add | 1 | 1 | 0 |");
    expect(md).toContain("| CPU requested on NodeClaims (cores) | 6.45 | 62.45 | +56 cores |");
    expect(md).toContain("| workload | base replicas | head replicas |\n|---|---:|---:|\n| nlb-app-karpenter/nginx-deployment | 12 | 40 |\n");
    expect(md).toContain("| memory requested on NodeClaims (GiB) | 11.3 | 115.6 | +104.3 GiB |");
    // The smallest candidate for 31 pods (62450m) has 64 vCPU; headroom is in the limit's unit.
    expect(md).toContain("| `default` | cpu | 1000 | 992 | 936 (-56) |");
    expect(md).toMatch(/\| `default` \| memory \| 1000Gi \| 986\.1Gi \| [\d.]+Gi \(-[\d.]+Gi\) \|/);
  });

  it("says when nothing changes, and handles a cluster added or removed", () => {
    expect(compareSimulations(result, result)).toContain("No capacity change at HPA max: 3 node-group node(s), 1 NodeClaim(s), 0 pod(s) Pending.");
    expect(compareSimulations(result, result)).not.toContain("base replicas");
    expect(compareSimulations(undefined, result, { headSweep: labSweep })).toContain("| NodeClaims Karpenter would add | - | 1 | new |");
    expect(compareSimulations(undefined, result, { headSweep: labSweep })).toContain("xychart-beta");
    expect(compareSimulations(result, undefined)).toBe("### eksworkshop\n\nRemoved in this change (base: 3 node-group node(s), 1 NodeClaim(s) at HPA max).\n");
  });
});

describe("inUnitOf", () => {
  it("writes an amount in the unit its limit is written in", () => {
    expect(inUnitOf("cpu", "1000", 992_000)).toBe("992");
    expect(inUnitOf("cpu", "1500m", 992_500)).toBe("992500m");
    expect(inUnitOf("memory", "1000Gi", 1009792 * 2 ** 20)).toBe("986.1Gi");
    expect(inUnitOf("memory", "400G", 3e11)).toBe("300G");
    expect(inUnitOf("memory", "1099511627776", 2 ** 39)).toBe("549755813888");
  });
});
