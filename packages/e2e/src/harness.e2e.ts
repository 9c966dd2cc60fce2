// The harness itself: the server is real, the CRDs keep their CEL rules and defaults, and applies reach the server unaltered.
import { KubeConfig, type KubernetesObject, KubernetesObjectApi, PatchStrategy, VersionApi } from "@kubernetes/client-node";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { applyVerdict, createVerdict, ensureNamespaces, FIELD_MANAGER, RawObjectApi } from "./harness/apply.ts";
import { celRulesAt } from "./harness/crd-rules.ts";
import { pinnedCrd } from "./harness/crds.ts";
import { loadRenderedObjects } from "./rendered.ts";

const NODEPOOL_CRD = await pinnedCrd("nodepools.karpenter.sh");
let kc: KubeConfig;
let api: RawObjectApi;
const rendered = loadRenderedObjects();
// biome-ignore lint/suspicious/noExplicitAny: tests poke at arbitrary fields of rendered objects
type Loose = Record<string, any>;
const pick = (kind: string): Loose => {
  const found = rendered.find((r) => r.object.kind === kind);
  if (!found) throw new Error(`no rendered ${kind}`);
  return structuredClone(found.object);
};

beforeAll(async () => {
  kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  api = RawObjectApi.fromKubeConfig(kc);
  await ensureNamespaces(api, [pick("Deployment").metadata.namespace]);
});

describe("test API server", () => {
  it("is kube-apiserver v1.36", async () => {
    const version = await kc.makeApiClient(VersionApi).getCode();
    expect(version.gitVersion).toMatch(/^v1\.36\.\d+$/);
  });

  it("enforces the NodePool CRD's CEL rules (installed with x-kubernetes-validations intact)", async () => {
    const nodePool = pick("NodePool");
    nodePool.spec.template.spec.nodeClassRef.group = "";
    const verdict = await applyVerdict(api, nodePool as KubernetesObject, { dryRun: true });
    expect(verdict).toMatchObject({ accepted: false, code: 422, reason: "Invalid" });
    const [rule] = celRulesAt(NODEPOOL_CRD, "spec.template.spec.nodeClassRef.group");
    expect(verdict.accepted ? [] : verdict.causes).toContainEqual({
      reason: "FieldValueInvalid",
      message: `Invalid value: "": ${rule?.message}`,
      field: "spec.template.spec.nodeClassRef.group",
    });
  });

  it("applies the NodePool CRD's schema defaults", async () => {
    const nodePool = pick("NodePool");
    delete nodePool.spec.disruption;
    const verdict = await applyVerdict(api, nodePool as KubernetesObject, { dryRun: true });
    if (!verdict.accepted) expect.fail(verdict.message);
    expect((verdict.object as Loose).spec.disruption).toEqual({
      budgets: [{ nodes: "10%" }],
      consolidateAfter: "0s",
      consolidationPolicy: "WhenEmptyOrUnderutilized",
    });
  });

  it("prunes an explicit null of a non-nullable CRD field on create, but rejects it on server-side apply", async () => {
    // Why the differential uses create: the validator follows create semantics.
    const nodePool = pick("NodePool");
    nodePool.spec.weight = null;
    const created = await createVerdict(api, nodePool as KubernetesObject, { dryRun: true });
    if (!created.accepted) expect.fail(created.message);
    expect((created.object as Loose).spec).not.toHaveProperty("weight");
    const applied = await applyVerdict(api, nodePool as KubernetesObject, { dryRun: true });
    expect(applied).toMatchObject({ accepted: false, code: 422 });
    expect(applied.accepted ? [] : applied.causes.map((c) => c.field)).toContain("spec.weight");
  });

  it("stores an integer that overflows an int32 field wrapped, instead of rejecting it (server-side apply)", async () => {
    const deployment = pick("Deployment");
    deployment.spec.minReadySeconds = 2 ** 32 + 7;
    const verdict = await applyVerdict(api, deployment as KubernetesObject, { dryRun: true });
    if (!verdict.accepted) expect.fail(verdict.message);
    expect((verdict.object as Loose).spec.minReadySeconds).toBe(7);
  });

  it("rejects an unknown field of a built-in kind, which client-node's own patch() silently drops", async () => {
    const deployment = pick("Deployment");
    deployment.spec.replicaz = 3;
    const verdict = await applyVerdict(api, deployment as KubernetesObject, { dryRun: true });
    // Server-side apply builds a typed patch first; a field outside the schema fails there, as a 500.
    expect(verdict).toMatchObject({ accepted: false, code: 500 });
    expect(verdict.accepted ? "" : verdict.message).toBe(
      `failed to create typed patch object (${deployment.metadata.namespace}/${deployment.metadata.name}; apps/v1, Kind=Deployment): .spec.replicaz: field not declared in schema`,
    );

    // Why RawObjectApi exists: the generated serializer strips the field before it is sent.
    const plain = KubernetesObjectApi.makeApiClient(kc);
    const accepted = await plain.patch(deployment as KubernetesObject, undefined, "All", FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
    expect(accepted.metadata?.name).toBe(deployment.metadata.name);
  });
});
