import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadCluster } from "@eks-gitops/config";
import { main } from "./bin.ts";
import { renderCluster } from "./render.ts";
import { readTree } from "./tree.ts";

const REPO = resolve(import.meta.dirname, "../../..");

/** A throwaway repository root holding copies of the real overlays (and their committed output). */
function tempRepo(): string {
  const root = mkdtempSync(join(tmpdir(), "synth-test-"));
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  mkdirSync(join(root, "clusters"));
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  cpSync(join(REPO, "clusters/eksworkshop"), join(root, "clusters/eksworkshop"), { recursive: true });
  cpSync(join(REPO, "clusters/aws-cn"), join(root, "clusters/aws-cn"), { recursive: true });
  // Overlays import @eks-gitops/config; resolve it through the real workspace's links.
  symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
  return root;
}

let out: string[];
let err: string[];
beforeEach(() => {
  out = [];
  err = [];
  vi.spyOn(process.stdout, "write").mockImplementation((s) => {
    out.push(String(s));
    return true;
  });
  vi.spyOn(process.stderr, "write").mockImplementation((s) => {
    err.push(String(s));
    return true;
  });
});
afterEach(() => vi.restoreAllMocks());

describe("renderCluster", () => {
  it("is deterministic: two renders are byte-identical", async () => {
    const config = await loadCluster(REPO, "eksworkshop");
    const a = renderCluster(config);
    const b = renderCluster(config);
    expect([...a.entries()]).toEqual([...b.entries()]);
  });

  it("names files <group>_<version>_<kind>[_<namespace>]_<name>.yaml", async () => {
    const paths = [...renderCluster(await loadCluster(REPO, "eksworkshop")).keys()];
    expect(paths).toContain("karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml");
    expect(paths).toContain("karpenter-nodepools/karpenter.k8s.aws_v1_ec2nodeclass_default.yaml");
    expect(paths).toContain("workload-nlb-app-karpenter/apps_v1_deployment_nlb-app-karpenter_nginx-deployment.yaml");
    expect(paths).toContain("workload-nlb-app-karpenter/core_v1_service_nlb-app-karpenter_service-nginx.yaml");
    expect(paths).toContain("workload-nlb-app-karpenter/autoscaling_v2_horizontalpodautoscaler_nlb-app-karpenter_nginx-deployment.yaml");
    expect(paths).toContain("iam/index.json");
  });
});

describe("eks-gitops synth", () => {
  let root: string;
  beforeEach(() => {
    root = tempRepo();
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("--check passes on up-to-date output", async () => {
    expect(await main(["synth", "--check", "--root", root])).toBe(0);
    expect(out.join("")).toContain("ok      clusters/eksworkshop/rendered (");
  });

  it("--check exits 1 listing changed, missing and extra files and the fixing command", async () => {
    const dir = join(root, "clusters/eksworkshop/rendered");
    writeFileSync(join(dir, "karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml"), "edited by hand\n");
    rmSync(join(dir, "iam/index.json"));
    writeFileSync(join(dir, "karpenter-nodepools/stale.yaml"), "kind: Old\n");
    expect(await main(["synth", "--check", "--root", root, "--cluster", "eksworkshop"])).toBe(1);
    const text = out.join("");
    expect(text).toContain("stale   clusters/eksworkshop/rendered: 3 files differ (1 changed, 1 missing, 1 extra)");
    expect(text).toContain("  [~] clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml");
    // the unified diff of the changed file, committed -> rendered
    expect(text).toContain(
      "      --- a/clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml\tcommitted\n" +
        "      +++ b/clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml\trendered\n" +
        "      @@ -1,1 +1,",
    );
    expect(text).toContain("\n      -edited by hand\n      +# Rendered by `pnpm synth` from clusters/eksworkshop/cluster.ts.");
    expect(text).toContain("  [+] clusters/eksworkshop/rendered/iam/index.json");
    expect(text).toContain("  [-] clusters/eksworkshop/rendered/karpenter-nodepools/stale.yaml");
    expect(text).toContain("  fix: pnpm synth --cluster eksworkshop");
    // --check never writes.
    expect(readFileSync(join(dir, "karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml"), "utf8")).toBe("edited by hand\n");
  });

  it("rewrites stale output and removes files it no longer renders", async () => {
    const dir = join(root, "clusters/eksworkshop/rendered");
    writeFileSync(join(dir, "karpenter-nodepools/stale.yaml"), "kind: Old\n");
    expect(await main(["synth", "--root", root, "--cluster", "eksworkshop"])).toBe(0);
    expect(existsSync(join(dir, "karpenter-nodepools/stale.yaml"))).toBe(false);
    expect(readTree(dir)).toEqual(readTree(join(REPO, "clusters/eksworkshop/rendered")));
    // no temporary folder left behind; the instance-type snapshot beside rendered/ is not synth's and stays
    expect(readdirNames(join(root, "clusters/eksworkshop"))).toEqual(["capacity", "cluster.ts", "rendered"]);
  });

  it("exits 2 on a bad overlay, names file and field, and writes nothing for any overlay", async () => {
    // Overlays render in name order (aws-cn, then eksworkshop): break the second one.
    const file = join(root, "clusters/eksworkshop/cluster.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("limits: { cpu: 1000", "limits: { cpu: -4"));
    rmSync(join(root, "clusters/aws-cn/rendered/iam/index.json"));
    const before = readTree(join(root, "clusters/aws-cn/rendered"));
    expect(await main(["synth", "--root", root])).toBe(2);
    expect(err.join("")).toContain(
      "clusters/eksworkshop/cluster.ts:33:22 Cluster/eksworkshop invalid nodePools[0].limits.cpu: must not be negative; got -4 [overlay:range]\n",
    );
    expect(err.join("")).toContain("nothing was written");
    // aws-cn renders fine, but nothing is written when any overlay fails.
    expect(readTree(join(root, "clusters/aws-cn/rendered"))).toEqual(before);
  });

  it("validates the render before writing: an invalid one exits 1 with the findings and writes nothing", async () => {
    // the overlay checks accept the key; the NodePool CRD's CEL rules reject it
    const file = join(root, "clusters/eksworkshop/cluster.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace('{ key: "kubernetes.io/os", operator: "In", values: ["linux"] },', '{ key: "karpenter.sh/nodepool", operator: "In", values: ["x"] },'));
    // aws-cn is stale (a file missing) and its render valid: still not written while eksworkshop's is invalid
    rmSync(join(root, "clusters/aws-cn/rendered/iam/index.json"));
    const before = { aws: readTree(join(root, "clusters/aws-cn/rendered")), eks: readTree(join(root, "clusters/eksworkshop/rendered")) };
    expect(await main(["synth", "--root", root])).toBe(1);
    const text = err.join("");
    expect(text).toContain(
      // at the overlay's line first, then where it is in the render's in-memory text (line 30 is the second requirement's `- key:`)
      'clusters/eksworkshop/cluster.ts:26:16 NodePool/default invalid nodePools[0].requirements[1].key -> clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml:30:11 /spec/template/spec/requirements/1/key: Invalid value: "karpenter.sh/nodepool": label "karpenter.sh/nodepool" is restricted [cel:self != "karpenter.sh/nodepool"]',
    );
    expect(text).toMatch(/\nSummary: 48 resources found - Valid: 47, Invalid: 1, Errors: 0, Skipped: 0[^\n]*\n/);
    expect(text.endsWith("the render is invalid: nothing was written. Fix the overlay, or write it anyway with `pnpm synth --no-validate`.\n")).toBe(true);
    expect(out.join("")).toBe("");
    expect(readTree(join(root, "clusters/aws-cn/rendered"))).toEqual(before.aws);
    expect(readTree(join(root, "clusters/eksworkshop/rendered"))).toEqual(before.eks);

    // --no-validate writes it (and `pnpm validate` would then report it)
    expect(await main(["synth", "--root", root, "--no-validate"])).toBe(0);
    expect(readFileSync(join(root, "clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml"), "utf8")).toContain("key: karpenter.sh/nodepool");
    expect(existsSync(join(root, "clusters/aws-cn/rendered/iam/index.json"))).toBe(true);
    // a later synth, with nothing left to write, still says the render is invalid
    err.length = 0;
    expect(await main(["synth", "--root", root, "--cluster", "eksworkshop"])).toBe(1);
    expect(err.join("")).toContain('label "karpenter.sh/nodepool" is restricted');
  });

  it("exits 2 and writes nothing when the schemas for the validation cannot be had", async () => {
    const empty = mkdtempSync(join(tmpdir(), "synth-no-schemas-"));
    vi.stubEnv("EKS_GITOPS_MIRROR", join(empty, "mirror"));
    vi.stubEnv("XDG_CACHE_HOME", join(empty, "cache"));
    try {
      rmSync(join(root, "clusters/aws-cn/rendered/iam/index.json"));
      expect(await main(["synth", "--root", root, "--cluster", "aws-cn"])).toBe(2);
      expect(err.join("")).toMatch(
        /^eks-gitops: synth: cannot validate the render: cannot read .*\/mirror\/\S+: ENOENT; is the mirror complete\?; nothing was written \(--no-validate writes without validating\)\n$/,
      );
      expect(existsSync(join(root, "clusters/aws-cn/rendered/iam/index.json"))).toBe(false);
    } finally {
      vi.unstubAllEnvs();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("reads the schemas from --mirror before the environment's mirror", async () => {
    const empty = mkdtempSync(join(tmpdir(), "synth-mirror-flag-"));
    vi.stubEnv("EKS_GITOPS_MIRROR", join(empty, "env-mirror"));
    vi.stubEnv("XDG_CACHE_HOME", join(empty, "cache"));
    try {
      rmSync(join(root, "clusters/aws-cn/rendered/iam/index.json"));
      expect(await main(["synth", "--root", root, "--cluster", "aws-cn", "--mirror", join(empty, "flag-mirror")])).toBe(2);
      const text = err.join("");
      expect(text).toContain(`cannot read ${join(empty, "flag-mirror")}/`);
      expect(text).not.toContain("env-mirror");
      expect(existsSync(join(root, "clusters/aws-cn/rendered/iam/index.json"))).toBe(false);
      err.length = 0;
      expect(await main(["synth", "--help"])).toBe(0);
    } finally {
      vi.unstubAllEnvs();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("exits 2 for an unknown overlay and for unknown flags", async () => {
    expect(await main(["synth", "--root", root, "--cluster", "nope"])).toBe(2);
    expect(err.join("")).toContain("clusters/nope/cluster.ts: (root): no such overlay; known overlays: aws-cn, eksworkshop");
    expect(await main(["synth", "--colour"])).toBe(2);
    expect(err.join("")).toContain("eks-gitops: synth --colour: unknown option (eks-gitops synth --help lists the options)\n");
    expect(await main(["frobnicate"])).toBe(2);
  });

  it("exits 2 when the folder name and the cluster name differ", async () => {
    cpSync(join(root, "clusters/aws-cn"), join(root, "clusters/other"), { recursive: true });
    expect(await main(["synth", "--root", root, "--cluster", "other"])).toBe(2);
    expect(err.join("")).toContain(
      "clusters/other/cluster.ts:5:9 Cluster/other invalid name: is 'aws-cn' but the overlay folder is 'other'; they must match (fix: `name: \"other\"`) [overlay:name]\n",
    );
  });
});

function readdirNames(dir: string): string[] {
  return [...readTree(dir).keys()].map((p) => p.split("/")[0]!).filter((v, i, a) => a.indexOf(v) === i).sort();
}
