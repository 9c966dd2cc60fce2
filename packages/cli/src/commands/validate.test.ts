// `eks-gitops validate` end to end: exit codes, output formats, default paths, --crd and --base (schemas from the
// product's cache, else $EKS_GITOPS_MIRROR when one is configured, else upstream).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { captureOutput } from "../testing/capture.ts";
import { main } from "../bin.ts";

const ROOT = resolve(import.meta.dirname, "../../../..");
const NODEPOOL = readFileSync(join(ROOT, "clusters/eksworkshop/rendered/karpenter-nodepools/karpenter.sh_v1_nodepool_default.yaml"), "utf8");
// the defaults a user gets: --mirror from $EKS_GITOPS_MIRROR, the cache in ~/.cache/eks-gitops/schemas
const common: string[] = [];

const output = captureOutput();

const tmp = () => mkdtempSync(join(tmpdir(), "validate-cli-"));
const file = (dir: string, name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

describe("eks-gitops validate", () => {
  it("passes the committed rendered output of every overlay (exit 0)", async () => {
    const code = await main(["validate", "--root", ROOT, ...common]);
    expect(output.err).toBe("");
    // every rendered object, IAM documents included (linted by the policies package), and nothing invalid
    const summary = output.out.trim().split("\n").at(-1) ?? "";
    expect(summary).toMatch(/^Summary: (\d+) resources found - Valid: \1, Invalid: 0, Errors: 0, Skipped: 0; 6 transition rules/);
    expect(output.out).toContain("iam:RESOURCE_STAR_SCOPABLE");
    expect(code).toBe(0);
  }, 180_000);

  it("exits 1 with the JSON contract for an invalid object and an unreadable document", async () => {
    const dir = tmp();
    const bad = NODEPOOL.replace("consolidateAfter: 1m", "consolidateAfter: 1m\n    consolidateBefore: 2m");
    file(dir, "np.yaml", `${bad}---\nkind: [\n`);
    const code = await main(["validate", join(dir, "np.yaml"), "-o", "json", "--root", dir, ...common]);
    expect(code).toBe(1);
    const json = JSON.parse(output.out);
    expect(json.summary).toEqual({ resources: 2, valid: 0, invalid: 1, error: 1, skipped: 0 });
    expect(json.resources[0]).toMatchObject({ index: 0, apiVersion: "karpenter.sh/v1", kind: "NodePool", name: "default", namespace: "", status: "invalid" });
    expect(json.resources[0].findings).toEqual([
      {
        severity: "error",
        path: "/spec/disruption/consolidateBefore",
        message: 'unknown field "spec.disruption.consolidateBefore"',
        rule: "schema:additionalProperties",
        line: 11,
        column: 5,
      },
    ]);
    expect(json.resources[1]).toMatchObject({ index: 1, status: "error" });
    expect(json.resources[1].findings[0].rule).toBe("parse:syntax");
  }, 60_000);

  it("exits 1 when a kind has no schema, saying how to supply one, and accepts it with --crd", async () => {
    const dir = tmp();
    const cr = file(dir, "gadget.yaml", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\nspec: {size: 1}\n");
    expect(await main(["validate", cr, "--root", dir, ...common])).toBe(1);
    expect(output.out).toContain("Gadget/g error /: no schema for example.com/v1 Gadget");
    expect(output.out).toContain("supply it with --crd FILE|DIR");
    const crd = file(
      dir,
      "crd.yaml",
      "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.example.com}\nspec:\n  group: example.com\n  scope: Cluster\n  names: {kind: Gadget, plural: gadgets}\n  versions:\n    - name: v1\n      served: true\n      storage: true\n      schema:\n        openAPIV3Schema:\n          type: object\n          properties:\n            spec: {type: object, properties: {size: {type: integer}}}\n",
    );
    output.out = "";
    expect(await main(["validate", cr, "--crd", crd, "--root", dir, ...common])).toBe(0);
    expect(output.out).toBe("Summary: 1 resources found - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0\n");
  }, 60_000);

  it("exits 2 on usage errors", async () => {
    expect(await main(["validate", "--output", "yaml"])).toBe(2);
    expect(output.err).toBe("eks-gitops: --output yaml: must be one of text, json, junit, sarif, github\n");
    output.err = "";
    expect(await main(["validate", "/nonexistent/file.yaml", "--root", tmp()])).toBe(2);
    expect(output.err).toBe("eks-gitops: no such file or folder: /nonexistent/file.yaml\n");
    expect(await main(["validate", "--bogus"])).toBe(2);
  });

  it("takes defaults from .eks-gitops.yaml, lets flags win, and exits 2 naming the file and an unknown key", async () => {
    const dir = tmp();
    // paths are shown relative to the folder the command runs in
    const cwd = process.cwd();
    process.chdir(dir);
    onTestFinished(() => process.chdir(cwd));
    file(dir, "gadget.yaml", "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n");
    file(dir, "kustomization.yaml", "resources: [gadget.yaml]\n");
    file(dir, ".eks-gitops.yaml", "validate:\n  ignoreFilenamePattern: kustomization\\.yaml$\n  skip: [Gadget]\n");
    expect(await main(["validate", dir, "--root", dir, "-v", ...common])).toBe(0);
    expect(output.out).toBe("gadget.yaml#0 Gadget/g skipped\nSummary: 1 resources found - Valid: 0, Invalid: 0, Errors: 0, Skipped: 1\n");
    output.out = "";
    expect(await main(["validate", dir, "--root", dir, "--reject", "example.com/Gadget", "--no-cross-object", ...common])).toBe(1);
    expect(output.out).toBe("gadget.yaml:2:1 Gadget/g error /kind: example.com/v1 Gadget is rejected by --reject example.com/Gadget [reject:example.com/Gadget]\nSummary: 1 resources found - Valid: 0, Invalid: 0, Errors: 1, Skipped: 0\n");
    file(dir, ".eks-gitops.yaml", "validate:\n  skips: [Gadget]\n");
    expect(await main(["validate", dir, "--root", dir, ...common])).toBe(2);
    expect(output.err).toBe(`eks-gitops: ${join(dir, ".eks-gitops.yaml")}: unknown key validate.skips (did you mean validate.skip?); known keys: skip, reject, ignoreMissingSchemas, ignoreFilenamePattern, checks, strict, acknowledge\n`);
    output.err = "";
    file(dir, ".eks-gitops.yaml", "validate: {}\n");
    expect(await main(["validate", dir, "--root", dir, "--checks", "schema,iamlint"])).toBe(2);
    expect(output.err).toBe("eks-gitops: --checks: unknown check 'iamlint' (checks: schema, cel, native, cross-object, iam)\n");
  }, 60_000);

  it("exits 2 when the mirror does not have the pinned file", async () => {
    const dir = tmp();
    const ns = file(dir, "ns.yaml", "apiVersion: v1\nkind: Namespace\nmetadata: {name: n}\n");
    expect(await main(["validate", ns, "--root", dir, "--mirror", join(dir, "empty-mirror"), "--cache-dir", join(dir, "cache")])).toBe(2);
    expect(output.err).toMatch(/^eks-gitops validate: cannot read .*empty-mirror\/kubernetes\/kubernetes\/v1\.36\.5\/api\/openapi-spec\/v3\/api__v1_openapi\.json: ENOENT; is the mirror complete\?/);
  });

  it("--kubernetes-version selects among the pinned Kubernetes sets (default: the newest, 1.36.5) and exits 2 with the list for another", async () => {
    const dir = tmp();
    const sc = file(dir, "sc.yaml", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: gp3}\nprovisioner: ebs.csi.aws.com\nvolumeBindingMode: WaitForFirstConsumer\n");
    expect(await main(["validate", sc, "--root", dir, ...common])).toBe(0);
    expect(await main(["validate", sc, "--root", dir, "--kubernetes-version", "1.36.5", ...common])).toBe(0);
    output.out = "";
    // v1.36.0 was pinned with 8 group-versions only: no storage.k8s.io there
    expect(await main(["validate", sc, "--root", dir, "--kubernetes-version", "1.36.0", ...common])).toBe(1);
    expect(output.out).toContain("StorageClass/gp3 error /: no schema for storage.k8s.io/v1 StorageClass");
    expect(await main(["validate", sc, "--root", dir, "--kubernetes-version", "1.35", ...common])).toBe(2);
    expect(output.err).toBe(
      "eks-gitops validate: no pinned kubernetes schemas for version 1.35 (pinned: 1.36.5, 1.36.0); add its files and SHA-256 to packages/validate/src/catalog/pins.ts or pass --crd/--from-cluster\n",
    );
  }, 60_000);

  it("evaluates oldSelf rules against the object committed at --base", async () => {
    const dir = tmp();
    const git = (...args: string[]) => execFileSync("git", ["-C", dir, ...args], { stdio: "pipe" });
    git("init", "-q");
    const np = file(dir, "np.yaml", NODEPOOL);
    git("add", "np.yaml");
    git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "base");
    writeFileSync(np, NODEPOOL.replace("group: karpenter.k8s.aws", "group: example.com"));
    // On create the immutability rule cannot run; only the cross-object check sees the foreign group (a loose
    // file: a warning, it may be written for another provider)
    expect(await main(["validate", np, "--root", dir, ...common])).toBe(0);
    expect(output.out).toContain("3 transition rules (oldSelf) skipped on create");
    expect(output.out).toMatch(/ NodePool\/default warning \/spec\/template\/spec\/nodeClassRef\/group: .*\[nodeclassref-kind\]/);
    expect(output.out).not.toContain("nodeClassRef.group is immutable");
    output.out = "";
    expect(await main(["validate", np, "--root", dir, "--base", "HEAD", "-o", "github", ...common])).toBe(1);
    expect(output.out.split("\n")).toContain(`::error file=np.yaml,line=21,col=7,title=NodePool/default cel/941736dc91ef::/spec/template/spec/nodeClassRef: Invalid value: "object": nodeClassRef.group is immutable`);
    expect(await main(["validate", np, "--root", dir, "--base", "no-such-ref", ...common])).toBe(2);
  }, 60_000);

  it("--strict (or strict in .eks-gitops.yaml) turns the cross-object opinions into errors", async () => {
    const fixture = join(ROOT, "packages/validate/fixtures/cross-object/hpa-target-sets-replicas");
    const dir = tmp();
    for (const name of ["deployment.yaml", "hpa.yaml"]) file(dir, name, readFileSync(join(fixture, name), "utf8"));
    expect(await main(["validate", dir, "--root", dir, "--no-iam", ...common])).toBe(0);
    expect(output.out).toContain(" Deployment/shop/web warning /spec/replicas: Deployment shop/web sets spec.replicas (3)");
    output.out = "";
    expect(await main(["validate", dir, "--root", dir, "--strict", ...common])).toBe(1);
    expect(output.out).toContain(" Deployment/shop/web invalid /spec/replicas: Deployment shop/web sets spec.replicas (3)");
    output.out = "";
    file(dir, ".eks-gitops.yaml", "validate:\n  strict: true\n");
    expect(await main(["validate", dir, "--root", dir, ...common])).toBe(1);
    output.out = "";
    // an acknowledged finding counts as nothing, even with strict, and is shown with its reason
    file(dir, ".eks-gitops.yaml", "validate:\n  strict: true\n  acknowledge:\n    - rule: hpa-target-sets-replicas\n      file: '*.yaml'\n      reason: pinned during the migration\n");
    expect(await main(["validate", dir, "--root", dir, ...common])).toBe(0);
    expect(output.out).toContain("acknowledged /spec/replicas: Deployment shop/web sets spec.replicas (3)");
    expect(output.out).toContain("(acknowledged: pinned during the migration) [hpa-target-sets-replicas]");
  }, 60_000);

  it("prints paths relative to the folder the command was typed in, as a terminal opens them", async () => {
    const dir = tmp();
    file(dir, "package.json", "{}\n");
    execFileSync("mkdir", ["-p", join(dir, "scratch/myapp")]);
    file(join(dir, "scratch/myapp"), "app.yaml", NODEPOOL.replace("consolidateAfter: 1m", "consolidateAfter: 1m\n    consolidateBefore: 2m"));
    const cwd = process.cwd();
    process.chdir(join(dir, "scratch"));
    onTestFinished(() => process.chdir(cwd));
    expect(await main(["validate", "myapp/", "--root", dir, ...common])).toBe(1);
    expect(output.out).toMatch(/^myapp\/app\.yaml:11:5 NodePool\/default invalid \/spec\/disruption\/consolidateBefore: /m);
    output.out = "";
    // GitHub annotations need the path from the repository root
    expect(await main(["validate", "myapp/", "--root", dir, "-o", "github", ...common])).toBe(1);
    expect(output.out).toMatch(/^::error file=scratch\/myapp\/app\.yaml,line=11,col=5,/m);
  }, 60_000);
});
