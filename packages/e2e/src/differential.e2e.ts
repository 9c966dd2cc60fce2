// The validator measured against the API server: a seeded corpus of >= 1,000 mutations of the rendered objects,
// and every fixture of packages/validate, through both `eks-gitops validate` and a server-side dry-run.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { CHECK_CODES, ENUM_VALUES } from "@eks-gitops/validate";
import { KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { agreementByKind, type Case, type Comparison, compare, formatAgreementByKind, formatComparison, kindShortfall, REASONS, type Schemas } from "./differential/compare.ts";
import { coverageKinds } from "./differential/coverage-kinds.ts";
import { type ConstraintLookup, constraintLookup, liveOpenApi, pinnedOpenApi } from "./differential/openapi-constraints.ts";
import { kubeconformOutcomes, kubectlValidateOutcomes, peerAgreement, peerBinaries } from "./differential/peers.ts";
import { serverOutcomes } from "./differential/server-side.ts";
import { runValidator, validatorAvailable } from "./differential/validator-cli.ts";
import { type Outcome, perObjectOutcome, validatorOutcome } from "./differential/verdicts.ts";
import { applyVerdict, ensureNamespaces, RawObjectApi } from "./harness/apply.ts";
import { REPO_ROOT } from "./harness/repo.ts";
import { BASES_NAMESPACE, extraBases } from "./mutations/bases.ts";
import { CATEGORIES, generateMutations } from "./mutations/generate.ts";
import { loadRenderedObjects } from "./rendered.ts";

/** Fixed so that every run, and every machine, measures the same corpus (`DIFFERENTIAL_SEED` explores others). */
const SEED = Number(process.env.DIFFERENTIAL_SEED ?? 20260901);
/** 2,400 by default; `DIFFERENTIAL_COUNT` runs a deeper corpus (more cases per kind for the per-kind bar). */
const COUNT = Number(process.env.DIFFERENTIAL_COUNT ?? 2400);

const bases = loadRenderedObjects();
const extra = extraBases();
// The rendered Namespaces are created for the objects that live in them (ensureNamespaces below), so a dry-run create
// of one would only answer 409 AlreadyExists: the Namespace kind is mutated from its base in mutations/ instead.
const mutable = bases.filter((r) => r.object.kind !== "Namespace").map((r) => ({ file: r.file, object: r.object }));
const corpus = generateMutations([...mutable, ...extra], { seed: SEED, count: COUNT });
const hasValidator = validatorAvailable();
const workDir = mkdtempSync(join(tmpdir(), "eks-gitops-differential-"));
let api: RawObjectApi;
let server: Outcome[] = [];

beforeAll(async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  api = RawObjectApi.fromKubeConfig(kc);
  await ensureNamespaces(api, [...bases.map((r) => r.object.metadata?.namespace ?? "").filter(Boolean), BASES_NAMESPACE]);
  server = await serverOutcomes(api, corpus.map((m) => m.object));
});

/** Agreement figures of each tool, printed together at the end (the README's table). */
const summary: string[] = [];
afterAll(() => {
  if (summary.length > 0) process.stdout.write(`\nAGREEMENT with kube-apiserver v1.36.5 (dry-run create):\n${summary.map((l) => `  ${l}`).join("\n")}\n`);
});
const rate = (r: { agreed: number; total: number }) => `${r.agreed}/${r.total} (${((r.agreed / Math.max(1, r.total)) * 100).toFixed(2)}%)`;
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// The server side is a dry-run create (POST), the semantics the validator follows; harness.e2e.ts shows
// where server-side apply differs (explicit nulls, integer overflow).
describe(`mutation corpus (seed ${SEED}, ${COUNT} mutations) through the API server (dry-run create)`, () => {
  it("starts from bases the server accepts as they are (the built-in kinds of mutations/bases.ts)", async () => {
    const outcomes = await serverOutcomes(api, extra.map((b) => b.object));
    expect(outcomes.map((o, i) => `${extra[i]?.object.kind}: ${o.verdict} ${o.detail}`.trim())).toEqual(extra.map((b) => `${b.object.kind}: valid`));
  });

  it("gets a verdict for every mutation: no transport error, no unknown kind", () => {
    const errors = corpus.flatMap((m, i) => (server[i]?.verdict === "error" ? [`${m.id}: ${server[i]?.detail}`] : []));
    expect(errors).toEqual([]);
  });

  it("rejects mutations of every category, and accepts some (edits that stay within the schema)", () => {
    const lines = CATEGORIES.map((category) => {
      const inCategory = corpus.map((m, i) => [m, server[i]] as const).filter(([m]) => m.category === category);
      const invalid = inCategory.filter(([, o]) => o?.verdict === "invalid").length;
      expect(invalid, category).toBeGreaterThan(0);
      return `${category}: ${invalid}/${inCategory.length} rejected`;
    });
    process.stdout.write(`API server verdicts: ${lines.join(", ")}\n`);
    expect(server.filter((o) => o.verdict === "valid").length).toBeGreaterThan(0);
  });
});

/** The mutation cases with both verdicts, kept for the per-kind checks after the run. */
let mutationCases: Case[] = [];
/** Every kind of the README's coverage table that is stored and served by default (issue 23). */
const tableKinds = coverageKinds();

describe.skipIf(!hasValidator)("differential: `eks-gitops validate` vs the API server", () => {
  it(`agrees on the ${COUNT} mutations, or each disagreement has a known reason`, async () => {
    const dir = join(workDir, "mutations");
    writeCorpus(dir, corpus.map((m) => ({ name: `${m.id}.yaml`, object: m.object })));
    const run = runValidator([dir]);
    const byFile = new Map(run.resources.map((r) => [baseName(r.file), r]));
    const cases: Case[] = corpus.map((m, i) => ({
      id: m.id,
      category: m.category,
      apiVersion: m.object.apiVersion ?? "",
      kind: m.object.kind ?? "",
      description: m.description,
      server: server[i] as Outcome,
      validator: validatorOutcome(byFile.get(`${m.id}.yaml`)),
      object: m.object,
    }));
    mutationCases = cases;
    process.stdout.write(`${formatAgreementByKind(`mutations (seed ${SEED})`, agreementByKind(cases, tableKinds.kinds))}\n`);
    const pinned = await report("mutations", cases);
    summary.push(`mutations (${COUNT}, ${new Set(cases.map((c) => c.kind)).size} kinds): eks-gitops validate ${rate(pinned)}`);
    await peers("mutations", dir, cases);

    // The same corpus with the server's own schemas (--from-cluster) instead of the pinned catalog.
    const live = runValidator([dir], { args: ["--from-cluster"], env: { KUBECONFIG: inject("kubeconfigPath") } });
    const liveByFile = new Map(live.resources.map((r) => [baseName(r.file), r]));
    const fromCluster = await report(
      "mutations, validator --from-cluster",
      cases.map((c) => ({ ...c, validator: validatorOutcome(liveByFile.get(`${c.id}.yaml`)) })),
      "live",
    );
    // The enums missing from the pinned upstream OpenAPI are the server's to supply: --from-cluster closes every such case.
    const gaps = pinned.disagreements.filter((d) => d.reason === REASONS.catalogGap).map((d) => d.id);
    const open = new Set(fromCluster.disagreements.map((d) => d.id));
    process.stdout.write(`catalog gap: ${gaps.length} disagreements with the pinned catalog, ${gaps.filter((id) => !open.has(id)).length} of them agree with --from-cluster\n`);
    expect(gaps.filter((id) => open.has(id))).toEqual([]);
  });

  it("agrees on at least 99.5% of the mutations of every kind, with no false rejection", () => {
    const rows = agreementByKind(mutationCases, []).filter((r) => kindShortfall(r) !== undefined);
    expect(rows.map((r) => `${r.kind}: ${kindShortfall(r)} (${r.agreed}/${r.cases}, ${r.falseRejections} false rejections, ${r.misses} misses)`)).toEqual([]);
  });

  it(`covers every kind of the coverage table served by default (${tableKinds.kinds.length} kinds)`, () => {
    const mutated = new Set(mutationCases.map((c) => c.kind));
    expect(tableKinds.kinds.filter((k) => !mutated.has(k))).toEqual([]);
  });

  const fixturesDir = join(REPO_ROOT, "packages", "validate", "fixtures");
  it.skipIf(!existsSync(fixturesDir))("agrees on every fixture of packages/validate, or each disagreement has a known reason", async () => {
    const docs = listFiles(fixturesDir).flatMap((file) =>
      parseAllDocuments(readFileSync(file, "utf8")).flatMap((doc, index) => {
        const object = doc.errors.length === 0 ? (doc.toJS() as KubernetesObject | null) : null;
        return object?.apiVersion && object.kind ? [{ file, index, object }] : [];
      }),
    );
    const namespaces = docs.map((d) => d.object.metadata?.namespace ?? "").filter(Boolean);
    await ensureNamespaces(api, namespaces);
    // Pods need their namespace's default ServiceAccount (admission); no controller-manager creates it here
    for (const namespace of new Set(namespaces)) {
      await applyVerdict(api, { apiVersion: "v1", kind: "ServiceAccount", metadata: { name: "default", namespace } }, { dryRun: false });
    }
    const outcomes = await serverOutcomes(api, docs.map((d) => d.object));
    const run = runValidator([fixturesDir]);
    const byKey = new Map(run.resources.map((r) => [`${relative(REPO_ROOT, join(REPO_ROOT, r.file))}#${r.index}`, r]));
    const cases: Case[] = docs.map((d, i) => ({
      id: `${relative(fixturesDir, d.file)}#${d.index}`,
      category: "fixture",
      apiVersion: d.object.apiVersion ?? "",
      kind: d.object.kind ?? "",
      description: `${d.object.kind}/${d.object.metadata?.name ?? ""}`,
      server: outcomes[i] as Outcome,
      validator: validatorOutcome(byKey.get(`${relative(REPO_ROOT, d.file)}#${d.index}`)),
      object: d.object,
      expectedCrossObject: expectedCrossObjectCodes(readFileSync(d.file, "utf8")),
    }));
    const result = await report("fixtures", cases);
    // cross-object findings (HPA targets, IAM, versions...) are the validator's own, beyond one object: set aside
    const perObjectCases = cases.map((c) => ({ ...c, validator: perObjectOutcome(c.validator) }));
    const perObject = compare(perObjectCases, { pinned: pinnedLookup as ConstraintLookup, live: liveLookup as ConstraintLookup });
    process.stdout.write(`${formatComparison("fixtures, per-object findings", perObject)}\n`);
    process.stdout.write(`${formatAgreementByKind("fixtures, per-object findings", agreementByKind(perObjectCases, []))}\n`);
    summary.push(`fixtures (${cases.length} documents): eks-gitops validate ${rate(result)}; on per-object findings (cross-object checks set aside) ${rate(perObject)}`);
    // the peers read one document per file: the fixture documents, one per file
    const dir = join(workDir, "fixtures");
    writeCorpus(dir, docs.map((d, i) => ({ name: `${String(i).padStart(4, "0")}.yaml`, object: d.object })));
    await peers("fixtures", dir, cases.map((c, i) => ({ ...c, id: String(i).padStart(4, "0") })));
  });
});

/** kubeconform and kubectl-validate on the same files (`<id>.yaml` in `dir`): agreement with the server, printed. */
async function peers(title: string, dir: string, cases: readonly Case[]): Promise<void> {
  const bins = peerBinaries();
  const withFiles = cases.map((c) => ({ file: `${c.id}.yaml`, kind: c.kind, server: c.server }));
  const kinds = new Set(cases.map((c) => c.kind));
  for (const [name, outcomes] of [
    ["kubeconform v0.7.0 -strict", await kubeconformOutcomes(bins.kubeconform, dir, kinds)],
    ["kubectl-validate", await kubectlValidateOutcomes(bins["kubectl-validate"], dir)],
  ] as const) {
    const a = peerAgreement(withFiles, outcomes);
    const byKind = Object.entries(a.byKind)
      .sort(([x], [y]) => x.localeCompare(y))
      .map(([k, v]) => `${k} ${v.agreed}/${v.total}`)
      .join(", ");
    process.stdout.write(`${title}, ${name}: ${rate(a)} agree with the server\n  by kind: ${byKind}\n`);
    summary.push(`${title}: ${name} ${rate(a)}`);
  }
}

/** Prints the comparison, writes it as JSON for inspection, and fails on any disagreement without a known reason. */
let pinnedLookup: ConstraintLookup | undefined;
let liveLookup: ConstraintLookup | undefined;
/** `validatorSchemas`: which schemas the validator ran with (the pinned catalog, or the server's via --from-cluster). */
async function report(title: string, cases: readonly Case[], validatorSchemas: "pinned" | "live" = "pinned"): Promise<Comparison> {
  pinnedLookup ??= constraintLookup(withGoEnums(await pinnedOpenApi()));
  liveLookup ??= constraintLookup(
    await liveOpenApi(inject("kubeconfigPath"), [
      "api/v1",
      "apis/apps/v1",
      "apis/autoscaling/v2",
      "apis/batch/v1",
      "apis/policy/v1",
      "apis/networking.k8s.io/v1",
      "apis/rbac.authorization.k8s.io/v1",
      "apis/scheduling.k8s.io/v1",
      "apis/storage.k8s.io/v1",
      "apis/resource.k8s.io/v1",
      "apis/coordination.k8s.io/v1",
      "apis/node.k8s.io/v1",
      "apis/admissionregistration.k8s.io/v1",
      "apis/discovery.k8s.io/v1",
      "apis/certificates.k8s.io/v1",
      "apis/flowcontrol.apiserver.k8s.io/v1",
      "apis/events.k8s.io/v1",
    ]),
  );
  const schemas: Schemas = { pinned: validatorSchemas === "pinned" ? pinnedLookup : liveLookup, live: liveLookup };
  const result = compare(cases, schemas);
  // not the run's own temporary folder (vitest.tmpdir.ts removes it at the end): the machine's
  const file = join(process.env.EKS_GITOPS_TEST_REPORT_DIR ?? tmpdir(), `eks-gitops-differential-${title}.json`);
  const slim = { ...result, disagreements: result.disagreements.map(({ object: _object, ...d }) => d) };
  writeFileSync(file, `${JSON.stringify(slim, null, 2)}\n`);
  process.stdout.write(`${formatComparison(title, result)}\n(full report: ${file})\n`);
  expect(result.total).toBe(cases.length);
  expect(result.disagreements.filter((d) => d.reason === undefined).map((d) => `${d.id}: ${d.description}`)).toEqual([]);
  return result;
}

/** The pinned documents with the generated Go enums the validator applies (so an enum it misses is not excused). */
function withGoEnums<T extends { components?: { schemas?: Record<string, unknown> } }>(docs: T[]): T[] {
  for (const doc of docs) {
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
      const fields = ENUM_VALUES[name];
      const props = (schema as { properties?: Record<string, { enum?: unknown[]; items?: { enum?: unknown[] } }> }).properties;
      if (!fields || !props || /(Status|Condition)$/.test(name)) continue;
      for (const [field, values] of Object.entries(fields)) {
        const prop = props[field];
        if (!prop) continue;
        if (prop.items) prop.items.enum ??= [...values];
        else prop.enum ??= [...values];
      }
    }
  }
  return docs;
}

/** The cross-object check codes a fixture's leading `# rule: <code>` lines expect (packages/validate/fixtures/README.md). */
function expectedCrossObjectCodes(text: string): string[] {
  const header = text.slice(0, text.search(/^[^#\s]/m) >>> 0);
  return [...header.matchAll(/^#\s*rule:\s*(\S+)\s*$/gm)].map((m) => m[1] ?? "").filter((code) => code in CHECK_CODES);
}

function writeCorpus(dir: string, items: readonly { name: string; object: KubernetesObject }[]) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // YAML 1.1 quoting ("on", "y", "0755" quoted): every validator reads YAML as kubectl does (sigs.k8s.io/yaml)
  for (const { name, object } of items) writeFileSync(join(dir, name), stringify(object, { version: "1.1" }));
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ya?ml|json)$/.test(f))
    .sort()
    .map((f) => join(dir, f));
}

function baseName(file: string): string {
  return file.slice(file.lastIndexOf("/") + 1);
}
