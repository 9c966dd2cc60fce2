// Differential test against kubectl-validate: the same fixtures and the same pinned schemas (Kubernetes 1.36 OpenAPI via
// --local-schemas, Karpenter and Argo CD CRDs via --local-crds). Every verdict agrees, or the case is listed below with
// which side is right and why.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadDocuments } from "./reader.ts";
import { catalogLayer, SchemaRegistry } from "./schema/registry.ts";
import { readHeader } from "./testing/fixture-header.ts";
import { writeKubectlValidateSchemas } from "./testing/kube-schemas.ts";
import { findTool, howToBuild, offline } from "./testing/test-tools.ts";
import { validateDocuments } from "./validate-documents.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const KUBECTL_VALIDATE = findTool("kubectl-validate");
if (!KUBECTL_VALIDATE) console.warn(`[differential] skipped: ${howToBuild("kubectl-validate")}`);

type Verdict = "valid" | "invalid";
interface KnownDifference {
  readonly ours: Verdict;
  readonly kubectlValidate: Verdict;
  readonly right: "ours" | "kubectl-validate";
  readonly why: string;
}

/** Fixtures on which the two validators disagree. The test fails if a listed case starts agreeing, or a new one disagrees. */
const KNOWN_DIFFERENCES: Readonly<Record<string, KnownDifference>> = {
  "structural/hpa-missing-max-replicas.yaml": {
    ours: "invalid",
    kubectlValidate: "valid",
    right: "ours",
    why: "the 1.36 OpenAPI gives maxReplicas `default: 0`, which kubectl-validate applies to a built-in type and so satisfies `required`; the API server decodes into the Go struct (maxReplicas 0) and its handwritten HPA validation rejects maxReplicas < 1. We report `required`; the verdict is the API server's",
  },
  "structural/ec2nodeclass-int32-overflow.yaml": {
    ours: "invalid",
    kubectlValidate: "valid",
    right: "ours",
    why: "kubelet.maxPods has `format: int32`; kube-apiserver 1.36 rejects 2^31 on create (measured by packages/e2e's differential run), kubectl-validate does not check integer formats",
  },
  "structural/nodepool-status-ignored.yaml": {
    ours: "valid",
    kubectlValidate: "invalid",
    right: "ours",
    why: "NodePool enables the status subresource, so kube-apiserver deletes `status` in PrepareForCreate before validating (packages/e2e's fixture run accepts it); kubectl-validate validates status against the schema",
  },
  "structural/hpa-missing-spec.yaml": {
    ours: "invalid",
    kubectlValidate: "valid",
    right: "ours",
    why: "Kubernetes 1.36 lists `spec` as required on HorizontalPodAutoscaler; kubectl-validate does not enforce it for built-in kinds, while the API server's handwritten validation rejects the empty spec (scaleTargetRef.kind/name required, maxReplicas must be >= 1)",
  },
};

/** Fixtures that cannot be compared, and why. */
function notComparable(file: string): string | undefined {
  if (readHeader(join(FIXTURES, file)).old !== undefined) return "an update (old object): kubectl-validate only validates as create";
  return undefined;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith(".yaml") ? [join(dir, e.name)] : []));
}

const files = ["karpenter", "structural", "defaulting"]
  .flatMap((d) => yamlFiles(join(FIXTURES, d)))
  .map((f) => relative(FIXTURES, f))
  .filter((f) => notComparable(f) === undefined);

describe.skipIf(!KUBECTL_VALIDATE)("differential: kubectl-validate vs @eks-gitops/validate", () => {
  let work: string;
  let theirs: Map<string, Verdict>;
  let ours: Map<string, Verdict>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "eks-gitops-differential-"));
    // ApplicationSet's 1.4 MB CRD is not needed by the fixtures and only slows kubectl-validate down.
    const dirs = await writeKubectlValidateSchemas(work, (p) => !p.endsWith("applicationset-crd.yaml"));
    const peer = offline(KUBECTL_VALIDATE!, ["--local-crds", dirs.crds, "--local-schemas", dirs.schemas, "--version", "1.35", "--output", "json", ...files]);
    const run = spawnSync(peer.command, peer.args, {
      cwd: FIXTURES,
      env: peer.env,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    });
    // Exit 1 means "some document invalid"; anything else than 0/1 is kubectl-validate failing.
    expect([0, 1], `kubectl-validate exit status; stderr: ${run.stderr}`).toContain(run.status);
    const parsed = JSON.parse(run.stdout) as Record<string, { status?: string }[]>;
    theirs = new Map(Object.entries(parsed).map(([f, results]) => [f, results.every((r) => r.status === "Success") ? "valid" : "invalid"]));

    const registry = new SchemaRegistry();
    registry.layers.push(await catalogLayer({}, {}));
    const report = await validateDocuments(loadDocuments(files.map((f) => join(FIXTURES, f)), { cwd: FIXTURES }), { registry });
    ours = new Map(report.resources.map((r) => [r.file, r.status === "valid" ? "valid" : "invalid"]));
  }, 300_000);

  afterAll(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("gives a verdict for every fixture on both sides", () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...theirs.keys()].sort()).toEqual([...files].sort());
    expect([...ours.keys()].sort()).toEqual([...files].sort());
  });

  it("agrees on every verdict, except the listed differences", () => {
    const unexplained = files
      .filter((f) => theirs.get(f) !== ours.get(f) && !KNOWN_DIFFERENCES[f])
      .map((f) => `${f}: ours ${ours.get(f)}, kubectl-validate ${theirs.get(f)}`);
    expect(unexplained).toEqual([]);
  });

  it("still disagrees where a difference is listed (the list cannot go stale)", () => {
    const listed = Object.entries(KNOWN_DIFFERENCES).map(([f, d]) => ({ f, expected: `ours ${d.ours}, kubectl-validate ${d.kubectlValidate}`, actual: `ours ${ours.get(f)}, kubectl-validate ${theirs.get(f)}` }));
    expect(listed.map(({ f, actual }) => `${f}: ${actual}`)).toEqual(listed.map(({ f, expected }) => `${f}: ${expected}`));
  });
});
