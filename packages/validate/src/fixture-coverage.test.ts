// Every CEL rule of the pinned Karpenter CRDs has a fixture that the API server accepts and one it rejects, so coverage cannot silently regress.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { CATALOG, fetchPinned } from "./catalog/index.ts";
import { type CrdRule, crdRules, hasValueAt, pointerAtSchemaPath } from "./testing/crd-rules.ts";
import { type FixtureHeader, parseHeader } from "./testing/fixture-header.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));
const CRDS = ["karpenter.sh_nodepools.yaml", "karpenter.sh_nodeclaims.yaml", "karpenter.k8s.aws_ec2nodeclasses.yaml"];

interface Fixture {
  readonly file: string;
  readonly header: FixtureHeader;
  readonly object: Record<string, unknown>;
  readonly old: Record<string, unknown> | undefined;
}

function readObject(file: string): Record<string, unknown> {
  const docs = parseAllDocuments(readFileSync(file, "utf8"));
  if (!Array.isArray(docs) || docs.length !== 1) throw new Error(`${file}: a fixture holds exactly one manifest`);
  return docs[0]!.toJS() as Record<string, unknown>;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith(".yaml") ? [join(dir, e.name)] : []));
}

const fixtures: Fixture[] = walk(join(FIXTURES, "karpenter")).map((file) => {
  const header = parseHeader(readFileSync(file, "utf8"), file);
  return { file: relative(FIXTURES, file), header, object: readObject(file), old: header.old ? readObject(join(dirname(file), header.old)) : undefined };
});

async function pinnedRules(): Promise<CrdRule[]> {
  const files = CATALOG.filter((r) => r.project === "karpenter").flatMap((r) => r.files.filter((f) => CRDS.some((c) => f.path.endsWith(`/${c}`))));
  expect(files).toHaveLength(3);
  const texts = await Promise.all(files.map((f) => fetchPinned(f)));
  return texts.flatMap((t) => crdRules(t.toString("utf8")));
}

/** Fixtures rejected because of this rule: same kind, the rule's message at the rule's location (transition rules: an update). */
function rejecting(rule: CrdRule): Fixture[] {
  return fixtures.filter(
    (f) =>
      f.header.expect === "invalid" &&
      f.object.kind === rule.kind &&
      (rule.transition ? f.old !== undefined : true) &&
      f.header.findings.some((e) => e.message === rule.message && e.path !== undefined && pointerAtSchemaPath(e.path, rule.schemaPath)),
  );
}

/** Fixtures accepted although the rule was evaluated on them: the rule's location holds a value (in old and new, for transition rules). */
function accepting(rule: CrdRule): Fixture[] {
  return fixtures.filter(
    (f) =>
      f.header.expect === "valid" &&
      f.object.kind === rule.kind &&
      hasValueAt(f.object, rule.schemaPath) &&
      (rule.transition ? f.old !== undefined && hasValueAt(f.old, rule.schemaPath) : true),
  );
}

describe("fixture coverage of the Karpenter v1.14.1 CEL rules", () => {
  it("finds every rule of the pinned CRDs", async () => {
    const rules = await pinnedRules();
    const count = (kind: string) => rules.filter((r) => r.kind === kind).length;
    // A Karpenter bump changes these: update the counts together with new fixtures.
    expect({ NodePool: count("NodePool"), NodeClaim: count("NodeClaim"), EC2NodeClass: count("EC2NodeClass") }).toEqual({ NodePool: 20, NodeClaim: 10, EC2NodeClass: 54 });
    expect(rules.filter((r) => r.transition).map((r) => `${r.kind} ${r.message}`)).toEqual([
      "NodePool Cannot transition NodePool between static (replicas set) and dynamic (replicas unset) provisioning modes",
      "NodePool nodeClassRef.group is immutable",
      "NodePool nodeClassRef.kind is immutable",
      "NodeClaim spec is immutable",
    ]);
  });

  it("has a rejected fixture for every rule", async () => {
    const missing = (await pinnedRules()).filter((r) => rejecting(r).length === 0).map((r) => `${r.kind} /${r.schemaPath.join("/")}: ${r.message}`);
    expect(missing).toEqual([]);
  });

  it("has an accepted fixture on which every rule is evaluated", async () => {
    const missing = (await pinnedRules()).filter((r) => accepting(r).length === 0).map((r) => `${r.kind} /${r.schemaPath.join("/")}: ${r.message}`);
    expect(missing).toEqual([]);
  });

  it("holds one manifest per fixture, each with a known kind", () => {
    expect(fixtures.length).toBeGreaterThan(100);
    for (const f of fixtures) expect(["NodePool", "NodeClaim", "EC2NodeClass"], f.file).toContain(f.object.kind);
  });
});
