// Transition rules (CEL rules on oldSelf): the API server refuses an update that breaks one, and `validate --base` flags the same change.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { stringify } from "yaml";
import { runValidator, validatorAvailable } from "./differential/validator-cli.ts";
import { applyVerdict, RawObjectApi } from "./harness/apply.ts";
import { celRulesAt } from "./harness/crd-rules.ts";
import { pinnedCrd } from "./harness/crds.ts";
import { loadRenderedObjects } from "./rendered.ts";

const NODEPOOL_CRD = await pinnedCrd("nodepools.karpenter.sh");
// biome-ignore lint/suspicious/noExplicitAny: the test edits arbitrary fields of a rendered NodePool
type Loose = Record<string, any>;
const rendered = loadRenderedObjects().find((r) => r.object.kind === "NodePool");
if (!rendered) throw new Error("no rendered NodePool");
const original: Loose = { ...structuredClone(rendered.object), metadata: { name: "e2e-transition" } };
const edited = (edit: (o: Loose) => void): KubernetesObject => {
  const copy = structuredClone(original);
  edit(copy);
  return copy as KubernetesObject;
};
/** The message of the NodePool CRD's oldSelf rule at `fieldPath` that mentions `needle`, read from the CRD. */
const transitionMessage = (fieldPath: string, needle: string) => {
  const rule = celRulesAt(NODEPOOL_CRD, fieldPath).find((r) => r.rule.includes("oldSelf") && r.rule.includes(needle));
  if (!rule?.message) throw new Error(`no oldSelf rule with ${needle} at ${fieldPath}`);
  return rule.message;
};

let api: RawObjectApi;
beforeAll(async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  api = RawObjectApi.fromKubeConfig(kc);
  const created = await applyVerdict(api, original as KubernetesObject, { dryRun: false });
  if (!created.accepted) throw new Error(`cannot create ${original.metadata.name}: ${created.message}`);
});

describe("transition rules on the API server", () => {
  it("refuses an update that changes nodeClassRef.group (dry-run), with the CRD's own message", async () => {
    const verdict = await applyVerdict(api, edited((o) => { o.spec.template.spec.nodeClassRef.group = "example.com"; }), { dryRun: true });
    expect(verdict).toMatchObject({ accepted: false, code: 422 });
    expect(verdict.accepted ? [] : verdict.causes).toEqual([
      {
        reason: "FieldValueInvalid",
        field: "spec.template.spec.nodeClassRef",
        message: expect.stringContaining(transitionMessage("spec.template.spec.nodeClassRef", "group")),
      },
    ]);
  });

  it("refuses turning a dynamic NodePool into a static one", async () => {
    const verdict = await applyVerdict(api, edited((o) => { o.spec.replicas = 2; delete o.spec.limits; }), { dryRun: true });
    expect(verdict.accepted ? [] : verdict.causes.map((c) => [c.field, c.message])).toEqual([
      ["spec", expect.stringContaining(transitionMessage("spec", "replicas"))],
    ]);
  });

  it("accepts an update the rules allow (a different nodeClassRef.name), and the same group change as a create", async () => {
    expect(await applyVerdict(api, edited((o) => { o.spec.template.spec.nodeClassRef.name = "other"; }), { dryRun: true })).toMatchObject({ accepted: true });
    const asNew = edited((o) => {
      o.metadata.name = "e2e-transition-new";
      o.spec.template.spec.nodeClassRef.group = "example.com";
    });
    expect(await applyVerdict(api, asNew, { dryRun: true })).toMatchObject({ accepted: true });
  });
});

describe.skipIf(!validatorAvailable())("`validate --base` flags the same change", () => {
  const repo = mkdtempSync(join(tmpdir(), "eks-gitops-transition-"));
  // Outside clusters/<name>/rendered, so that the run needs no overlay (cluster.ts) in the scratch repository.
  const file = join("manifests", "karpenter.sh_v1_nodepool_e2e-transition.yaml");
  const git = (...args: string[]) => execFileSync("git", ["-C", repo, ...args], { encoding: "utf8" });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it("reports the nodeClassRef.group change against the committed object", () => {
    mkdirSync(join(repo, "manifests"), { recursive: true });
    writeFileSync(join(repo, file), stringify(original));
    git("init", "-q");
    git("add", ".");
    git("-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit", "-q", "-m", "base");
    writeFileSync(join(repo, file), stringify(edited((o) => { o.spec.template.spec.nodeClassRef.group = "example.com"; })));
    // Without --base the transition rule cannot run (no previous object): only the cross-object check
    // that a NodePool's class lives in group karpenter.k8s.aws sees the change, not the immutability rule.
    const create = runValidator([file], { args: ["--root", repo], cwd: repo });
    expect(create.resources[0]?.findings.map((f) => f.rule)).toEqual(["nodeclassref-kind"]);
    const run = runValidator([file], { args: ["--base", "HEAD", "--root", repo], cwd: repo });
    expect(run.exitCode).toBe(1);
    expect(run.resources).toHaveLength(1);
    expect(run.resources[0]?.status).toBe("invalid");
    expect(run.resources[0]?.findings.map((f) => [f.path, f.message])).toContainEqual([
      "/spec/template/spec/nodeClassRef",
      expect.stringContaining(transitionMessage("spec.template.spec.nodeClassRef", "group")),
    ]);
  });
});
