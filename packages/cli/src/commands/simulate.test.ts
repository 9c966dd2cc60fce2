// Acceptance: `eks-gitops simulate` as a process on the eksworkshop overlay and the committed (moto-served) snapshot
// reproduces what the lab observed on a real cluster; bad input exits 1 or 2 naming the field or file.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Each case starts the CLI: slow on a loaded machine, and not a timing test.
vi.setConfig({ testTimeout: 300_000 });

const ROOT = resolve(import.meta.dirname, "../../../..");
const BIN = join(ROOT, "packages/cli/bin/eks-gitops.js");
const SNAPSHOT = "clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json";
const NGINX = "nlb-app-karpenter/nginx-deployment";

function cli(args: string[], root = ROOT) {
  const r = spawnSync(process.execPath, [BIN, "simulate", ...args, "--root", root], { cwd: ROOT, encoding: "utf8" });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let tmp: string;
/** A repository holding a copy of the eksworkshop overlay changed by `edit`, and its snapshot (changed by `snapshot`). */
function overlay(edit: (ts: string) => string, snapshot: (json: string) => string = (j) => j): string {
  const root = mkdtempSync(join(tmp, "repo-"));
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  mkdirSync(join(root, "clusters/eksworkshop/capacity"), { recursive: true });
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  symlinkSync(join(ROOT, "clusters/node_modules"), join(root, "clusters/node_modules"), "dir");
  const ts = readFileSync(join(ROOT, "clusters/eksworkshop/cluster.ts"), "utf8");
  const changed = edit(ts);
  writeFileSync(join(root, "clusters/eksworkshop/cluster.ts"), changed);
  writeFileSync(join(root, SNAPSHOT), snapshot(readFileSync(join(ROOT, SNAPSHOT), "utf8")));
  return root;
}

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "eks-gitops-simulate-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("the lab, reproduced: nginx-deployment at 12 replicas", () => {
  let run: ReturnType<typeof cli>;
  beforeAll(() => {
    run = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=12`]);
  });

  it("exits 0 with nothing on stderr", () => {
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("9 Running on the 3 t3.2xlarge, 3 Pending until Karpenter's NodeClaim joins", () => {
    expect(run.stdout.split("\n").slice(0, 4)).toEqual([
      "Capacity simulation of eksworkshop (ap-southeast-1)",
      "",
      `Scenario: every HPA target at its maxReplicas; ${NGINX}=12`,
      `  ${NGINX} at 12 replicas: 9 Running on existing nodes, 3 Pending (3 run once Karpenter's NodeClaims join)`,
    ]);
    expect(run.stdout).toContain(`  ${NGINX}  12        9               3        3                  0\n`);
    expect(run.stdout).toContain("Node group podsubnet: 3 x t3.2xlarge on-demand (allocatable cpu 7910m, ephemeral-storage 17Gi, memory 29317Mi, pods 58)");
  });

  it("one NodeClaim from NodePool default with the lab's requests and candidates", () => {
    expect(run.stdout).toContain("): 1 NodeClaim(s)\n  NodeClaim default-1: requests cpu 6450m, memory 12160432128, pods 7\n");
    expect(run.stdout).toContain("    instance types (349 candidates): c3.2xlarge, c3.4xlarge, c3.8xlarge, c4.2xlarge, c4.4xlarge and 344 other(s)\n");
    expect(run.stdout).toContain("    capacity types: spot; zones: ap-southeast-1a, ap-southeast-1b, ap-southeast-1c\n");
  });

  it("c4.2xlarge allocatable as Karpenter logged it", () => {
    expect(run.stdout).toContain("\n      c4.2xlarge: allocatable cpu 7910m, ephemeral-storage 17Gi, memory 13215Mi, pods 58\n");
  });

  it("is the sample the root README shows", () => {
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(`$ pnpm simulate --cluster eksworkshop --replicas ${NGINX}=12\n${run.stdout}\`\`\`\n`);
  });

  it("ends with the summary line", () => {
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("3 existing node(s), 1 NodeClaim(s) Karpenter would add, 0 pod(s) that stay Pending");
  });
});

describe("scaled back to 1 replica", () => {
  it("no NodeClaim, and the empty node is consolidated after 1m", () => {
    const run = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=1`]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`\n  ${NGINX} at 1 replicas: 1 Running on existing nodes, 0 Pending\n`);
    expect(run.stdout).toContain("): 0 NodeClaim(s)\n");
    expect(run.stdout).toContain(
      `  default-1 is empty after ${NGINX} 12 -> 1: WhenEmptyOrUnderutilized deletes it after 1m (consolidateAfter; decision delete, reason Empty)\n`,
    );
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("3 existing node(s), 0 NodeClaim(s) Karpenter would add, 0 pod(s) that stay Pending");
  });
});

describe("outputs", () => {
  it("--at max is the default; --at min puts the HPA at minReplicas", () => {
    expect(cli(["--cluster", "eksworkshop"]).stdout).toContain(`  ${NGINX}  12 `);
    const min = cli(["--cluster", "eksworkshop", "--at", "min"]);
    expect(min.stdout).toContain("\nScenario: every HPA target at its minReplicas\n");
    expect(min.stdout).toContain(`  ${NGINX}  3         3               0        0                  0\n`);
  });

  it("--output json with one --cluster is its SimulationResult, with the NodeClaim and the sweep", () => {
    const run = cli(["--cluster", "eksworkshop", "--output", "json"]);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as Record<string, any>;
    expect(Array.isArray(doc)).toBe(false);
    expect(doc?.cluster).toBe("eksworkshop");
    expect(doc?.nodeClaims[0].requests).toEqual({ cpu: "6450m", memory: "12160432128", pods: "7" });
    expect(doc?.nodeClaims[0].instanceTypes).toHaveLength(349);
    expect(doc?.sweep.points.map((p: { replicas: number }) => p.replicas)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  });

  it("--output markdown has the mermaid chart; --svg writes the SVG", () => {
    const svg = join(tmp, "chart.svg");
    const run = cli(["--cluster", "eksworkshop", "--output", "markdown", "--svg", svg]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("## Capacity simulation: eksworkshop (ap-southeast-1)\n");
    expect(run.stdout).toContain("```mermaid\nxychart-beta\n");
    expect(run.stdout).toContain("    bar [3, 3, 3, 3, 3, 3, 3, 4, 4, 4]\n");
    expect(run.stderr).toBe(`wrote ${svg}\n`);
    expect(readFileSync(svg, "utf8")).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it("every overlay by default: aws-cn has no snapshot and is skipped with the fix", () => {
    const run = cli([]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(
      "skipped aws-cn: clusters/aws-cn/capacity/instance-types.cn-northwest-1.json: missing: no instance-type data for region cn-northwest-1; run `pnpm eks-gitops capacity refresh --cluster aws-cn` (read-only EC2 calls) and commit the file\n",
    );
    expect(run.stdout).toContain("Capacity simulation of eksworkshop (ap-southeast-1)");
  });
});

describe("bad input", () => {
  it("a named overlay without a snapshot: exit 2 naming the file", () => {
    const run = cli(["--cluster", "aws-cn"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      "clusters/aws-cn/capacity/instance-types.cn-northwest-1.json: missing: no instance-type data for region cn-northwest-1; run `pnpm eks-gitops capacity refresh --cluster aws-cn` (read-only EC2 calls) and commit the file\nnothing was simulated.\n",
    );
    expect(run.stdout).toBe("");
  });

  it("a snapshot of another region: exit 2 naming the file and field", () => {
    const root = overlay(
      (t) => t,
      (j) => j.replace('"region": "ap-southeast-1"', '"region": "us-east-1"'),
    );
    const run = cli(["--cluster", "eksworkshop"], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "clusters/eksworkshop/capacity/instance-types.ap-southeast-1.json: region: is 'us-east-1' but clusters/eksworkshop/cluster.ts is in region 'ap-southeast-1'",
    );
  });

  it("a workload bigger than every allowed instance type: exit 1 naming the overlay field", () => {
    const root = overlay((t) => t.replace('requests: { cpu: "2", memory: "4G" }, limits: { cpu: "2", memory: "4G" }', 'requests: { cpu: "2000", memory: "4G" }, limits: { cpu: "2000", memory: "4G" }'));
    const run = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=1`], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "clusters/eksworkshop/cluster.ts: workloads[0]: nlb-app-karpenter/nginx-deployment-1 can never run: fits no existing node; NodePool default: no instance type has enough allocatable for requests cpu 2000, memory 4000000000, pods 1 plus DaemonSets\n",
    );
  });

  it("a NodePool whose requirements match no instance type is skipped as Karpenter does: its pods can never run (exit 1)", () => {
    const root = overlay((t) => t.replace('values: ["c", "m", "r"]', 'values: ["zz"]'));
    const run = cli(["--cluster", "eksworkshop"], root);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "can never run: fits no existing node; NodePool default matches no instance type of the ap-southeast-1 snapshot (requirements: intent In [apps], karpenter.k8s.aws/ec2nodeclass In [default], karpenter.k8s.aws/instance-category In [zz],",
    );
    expect(run.stderr).toContain("(Karpenter skips the NodePool)\n");
  });

  it("a node group instance type the snapshot does not have: exit 2 naming the field", () => {
    const root = overlay((t) => t.replace('instanceType: "t3.2xlarge"', 'instanceType: "t9.huge"'));
    const run = cli(["--cluster", "eksworkshop"], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("clusters/eksworkshop/cluster.ts: nodeGroups[0].instanceType: t9.huge is not in the ap-southeast-1 instance-type snapshot\nnothing was simulated.\n");
  });

  it("a bad overlay value: exit 2 naming the field", () => {
    const root = overlay((t) => t.replace("count: 3", "count: -3"));
    const run = cli(["--cluster", "eksworkshop"], root);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^clusters\/eksworkshop\/cluster\.ts:\d+:\d+ Cluster\/eksworkshop invalid nodeGroups\[0\]\.count: must not be negative; got -3 \[overlay:range\]\n/);
  });

  it("runs 1,000,000 and 2147483647 replicas: the pods past the NodePool's limits are one counted group", () => {
    for (const n of [1_000_000, 2_147_483_647]) {
      const run = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=${n}`]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(new RegExp(`${NGINX}-\\d+\\.\\.${NGINX}-${n} \\(\\d+ pods\\)  limit-reached`));
      expect(run.stdout).toMatch(/NodeClaim\(s\) Karpenter would add, \d+ pod\(s\) that stay Pending\n$/);
    }
  });

  it("runs 2147483647 replicas on a NodePool without limits: identical NodeClaims are one counted entry", () => {
    const root = overlay((t) => t.replace('limits: { cpu: 1000, memory: "1000Gi" },', ""));
    const run = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=2147483647`], root);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toMatch(/^ {2}\d+ identical NodeClaims default-\d+\.\.default-\d+: requests cpu \S+, memory \S+, pods \d+ each$/m);
    expect(run.stdout).toMatch(/^NodePool default \(weight 0, no limits; [^)]*\): \d{7,} NodeClaim\(s\)$/m);
    expect(run.stdout).toMatch(/\d{7,} NodeClaim\(s\) Karpenter would add, 0 pod\(s\) that stay Pending\n$/);
    const json = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=2147483647`, "--output", "json"], root);
    const result = JSON.parse(json.stdout) as { nodeClaims: { count?: number }[]; workloads: { workload: string; onNodeClaims: number; onExistingNodes: number }[] };
    expect(result.nodeClaims.some((c) => (c.count ?? 1) > 1_000_000)).toBe(true);
    const w = result.workloads.find((x) => x.workload === NGINX)!;
    expect(w.onExistingNodes + w.onNodeClaims).toBe(2_147_483_647);
  });

  it("usage errors: exit 2", () => {
    expect(cli(["--cluster", "eksworkshop", "--replicas", "web/web=2"]).stderr).toBe(
      "eks-gitops: --replicas web/web=2: eksworkshop has no workload web/web (have: kube-system/karpenter, nlb-app-karpenter/nginx-deployment, nlb-app-ondemand/nginx-deployment)\n",
    );
    const bad = cli(["--replicas", "nginx=2"]);
    expect([bad.code, bad.stderr]).toEqual([2, "eks-gitops: --replicas must be NAMESPACE/NAME=N with N a whole number, e.g. nlb-app-karpenter/nginx-deployment=12; got 'nginx=2'\n"]);
    for (const n of ["2147483648", "99999999999999999999"]) {
      const over = cli(["--cluster", "eksworkshop", "--replicas", `${NGINX}=${n}`]);
      expect([over.code, over.stderr]).toEqual([2, `eks-gitops: --replicas ${NGINX}: ${n} is above 2147483647, the most replicas a Deployment can have (int32)\n`]);
    }
    expect(cli(["--at", "peak"]).stderr).toBe("eks-gitops: --at must be one of min, max, current, not 'peak'\n");
    expect(cli(["--from-cluster"]).stderr).toBe("eks-gitops: --from-cluster reads one live cluster: give exactly one --cluster NAME\n");
    expect(cli(["--cluster", "eksworkshop", "--kubeconfig", "k"]).stderr).toBe("eks-gitops: --kubeconfig and --context go with --from-cluster\n");
  });
});
