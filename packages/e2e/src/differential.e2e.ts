// The validator measured against the API server: a seeded corpus of >= 1,000 mutations of the rendered objects,
// and every fixture of packages/validate, through both `eks-gitops validate` and a server-side dry-run.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { KubeConfig, type KubernetesObject } from "@kubernetes/client-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { parseAllDocuments, stringify } from "yaml";
import { CHECK_CODES } from "@eks-gitops/validate";
import { type Case, type Comparison, compare, formatComparison, REASONS, type Schemas } from "./differential/compare.ts";
import { type ConstraintLookup, constraintLookup, liveOpenApi, pinnedOpenApi } from "./differential/openapi-constraints.ts";
import { serverOutcomes } from "./differential/server-side.ts";
import { runValidator, validatorAvailable } from "./differential/validator-cli.ts";
import { type Outcome, validatorOutcome } from "./differential/verdicts.ts";
import { ensureNamespaces, RawObjectApi } from "./harness/apply.ts";
import { REPO_ROOT } from "./harness/repo.ts";
import { CATEGORIES, generateMutations } from "./mutations/generate.ts";
import { loadRenderedObjects } from "./rendered.ts";

/** Fixed so that every run, and every machine, measures the same corpus. */
const SEED = 20260901;
const COUNT = 1200;

const bases = loadRenderedObjects();
const corpus = generateMutations(
  bases.map((r) => ({ file: r.file, object: r.object })),
  { seed: SEED, count: COUNT },
);
const hasValidator = validatorAvailable();
const workDir = mkdtempSync(join(tmpdir(), "eks-gitops-differential-"));
let api: RawObjectApi;
let server: Outcome[] = [];

beforeAll(async () => {
  const kc = new KubeConfig();
  kc.loadFromFile(inject("kubeconfigPath"));
  api = RawObjectApi.fromKubeConfig(kc);
  await ensureNamespaces(api, bases.map((r) => r.object.metadata?.namespace ?? "").filter(Boolean));
  server = await serverOutcomes(api, corpus.map((m) => m.object));
});
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

// The server side is a dry-run create (POST), the semantics the validator follows; harness.e2e.ts shows
// where server-side apply differs (explicit nulls, integer overflow).
describe(`mutation corpus (seed ${SEED}, ${COUNT} mutations) through the API server (dry-run create)`, () => {
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
    const pinned = await report("mutations", cases);

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

  const fixturesDir = join(REPO_ROOT, "packages", "validate", "fixtures");
  it.skipIf(!existsSync(fixturesDir))("agrees on every fixture of packages/validate, or each disagreement has a known reason", async () => {
    const docs = listFiles(fixturesDir).flatMap((file) =>
      parseAllDocuments(readFileSync(file, "utf8")).flatMap((doc, index) => {
        const object = doc.errors.length === 0 ? (doc.toJS() as KubernetesObject | null) : null;
        return object?.apiVersion && object.kind ? [{ file, index, object }] : [];
      }),
    );
    await ensureNamespaces(api, docs.map((d) => d.object.metadata?.namespace ?? "").filter(Boolean));
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
    await report("fixtures", cases);
  });
});

/** Prints the comparison, writes it as JSON for inspection, and fails on any disagreement without a known reason. */
let pinnedLookup: ConstraintLookup | undefined;
let liveLookup: ConstraintLookup | undefined;
/** `validatorSchemas`: which schemas the validator ran with (the pinned catalog, or the server's via --from-cluster). */
async function report(title: string, cases: readonly Case[], validatorSchemas: "pinned" | "live" = "pinned"): Promise<Comparison> {
  pinnedLookup ??= constraintLookup(await pinnedOpenApi());
  liveLookup ??= constraintLookup(await liveOpenApi(inject("kubeconfigPath"), ["api/v1", "apis/apps/v1", "apis/autoscaling/v2"]));
  const schemas: Schemas = { pinned: validatorSchemas === "pinned" ? pinnedLookup : liveLookup, live: liveLookup };
  const result = compare(cases, schemas);
  const file = join(tmpdir(), `eks-gitops-differential-${title}.json`);
  const slim = { ...result, disagreements: result.disagreements.map(({ object: _object, ...d }) => d) };
  writeFileSync(file, `${JSON.stringify(slim, null, 2)}\n`);
  process.stdout.write(`${formatComparison(title, result)}\n(full report: ${file})\n`);
  expect(result.total).toBe(cases.length);
  expect(result.disagreements.filter((d) => d.reason === undefined).map((d) => `${d.id}: ${d.description}`)).toEqual([]);
  return result;
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
