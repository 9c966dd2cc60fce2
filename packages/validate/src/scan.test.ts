// The first pass of a streaming run: which apiVersion/kind pairs and CRDs each file may hold, read from the text.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadFileText } from "./reader.ts";
import { type ScanPartner, scanFiles, scanFilesShared } from "./scan.ts";
import { FactsByIndex, scanRead, type TextFacts, textFacts } from "./scan-text.ts";

const dir = mkdtempSync(join(tmpdir(), "scan-"));
function scan(name: string, text: string) {
  const file = join(dir, name);
  writeFileSync(file, text);
  const r = scanFiles([file], { maxFileBytes: 1 << 20, text: () => undefined, show: (f) => f });
  return { pairs: (r.kindsByFile.get(file) ?? []).map((p) => `${p.apiVersion} ${p.kind}`).sort(), crds: r.crdTypes.map((t) => t.gvk.kind), charts: [...r.charts] };
}

describe("scanFiles", () => {
  it("reads top-level apiVersion and kind of block YAML: first line, quoted, after `---`, CRLF and lone CR", () => {
    expect(scan("a.yaml", "apiVersion: v1\nkind: Service\n---\napiVersion: 'apps/v1'\nkind: \"Deployment\" # a comment\n").pairs).toEqual([
      "apps/v1 Deployment",
      "apps/v1 Service",
      "v1 Deployment",
      "v1 Service",
    ]);
    expect(scan("crlf.yaml", "kind: Service\r\napiVersion: v1\r\n").pairs).toEqual(["v1 Service"]);
    expect(scan("cr.yaml", "kind: Service\rapiVersion: v1\r").pairs).toEqual(["v1 Service"]);
  });

  it("does not take nested keys or values that only contain the key", () => {
    expect(scan("nested.yaml", "apiVersion: v1\nkind: ConfigMap\ndata:\n  kind: Secret\n  x: \"\\nkind: Pod\"\nmykind: Job\n").pairs).toEqual(["v1 ConfigMap"]);
  });

  it("reads JSON documents, and the CRDs and charts a file holds", () => {
    expect(scan("a.json", '{"kind": "Service", "apiVersion": "v1"}').pairs).toEqual(["v1 Service"]);
    const crd = [
      "apiVersion: apiextensions.k8s.io/v1",
      "kind: CustomResourceDefinition",
      "metadata: {name: widgets.example.com}",
      "spec:",
      "  group: example.com",
      "  names: {kind: Widget, plural: widgets}",
      "  scope: Namespaced",
      "  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]",
      "---",
      "apiVersion: argoproj.io/v1alpha1",
      "kind: Application",
      "spec:",
      "  source: {chart: karpenter}",
    ].join("\n");
    const r = scan("crd.yaml", crd);
    expect(r.crds).toEqual(["Widget"]);
    expect(r.charts).toEqual(["karpenter"]);
  });
});

describe("scanFiles' kept texts", () => {
  it("keeps the texts of the first files up to the budget, and none of a binary file", () => {
    const names = ["k0.yaml", "k1.yaml", "bin.yaml", "k2.yaml", "k3.yaml"];
    const texts = ["apiVersion: v1\nkind: A\n", "apiVersion: v1\nkind: B\n", "a\u0000b", "apiVersion: v1\nkind: C\n", "apiVersion: v1\nkind: D\n"];
    const paths = names.map((n, i) => {
      const file = join(dir, n);
      writeFileSync(file, texts[i] as string);
      return file;
    });
    // room for three texts of 24 characters: k0, k1 and k2 (the binary file is skipped, not kept); k3 does not fit
    const r = scanFiles(paths, { maxFileBytes: 1 << 20, text: () => undefined, show: (f) => f, keepChars: 3 * 24 + 10 });
    expect([...r.texts.keys()]).toEqual([paths[0], paths[1], paths[3]]);
    expect(r.texts.get(paths[1] as string)).toBe(texts[1]);
    expect(scanFiles(paths, { maxFileBytes: 1 << 20, text: () => undefined, show: (f) => f, keepChars: 0 }).texts.size).toBe(0);
  });
});

describe("scanFiles' parsed CRD files", () => {
  const crd = (kind: string) =>
    [
      "apiVersion: apiextensions.k8s.io/v1",
      "kind: CustomResourceDefinition",
      `metadata: {name: ${kind.toLowerCase()}s.example.com}`,
      "spec:",
      "  group: example.com",
      `  names: {kind: ${kind}, plural: ${kind.toLowerCase()}s}`,
      "  scope: Namespaced",
      "  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]",
      "---",
      "apiVersion: v1",
      "kind: ConfigMap",
      "metadata: {name: beside}",
      "---",
      "kind: [broken",
      "",
    ].join("\n");
  const sub = mkdtempSync(join(dir, "parsed-"));
  const write = (name: string, text: string) => {
    const file = join(sub, name);
    writeFileSync(file, text);
    return file;
  };
  const a = write("a.yaml", crd("Alpha"));
  const plain = write("b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\n");
  const c = write("c.yaml", crd("Gamma"));
  const show = (f: string) => f.slice(sub.length + 1);
  const options = { maxFileBytes: 1 << 20, text: () => undefined, show };

  it("keeps the documents of the CRD files whose text it keeps, as the reader makes them, and their types share the schemas", () => {
    const r = scanFiles([a, plain, c], options);
    expect([...r.parsed.keys()]).toEqual([a, c]);
    for (const f of [a, c]) expect(r.parsed.get(f)).toEqual(loadFileText(f, { cwd: sub }).docs);
    // the types learnt are made from the kept documents' own objects: the stream validates those very objects
    const alpha = r.parsed.get(a)?.resources[0]?.object as { spec: { versions: { schema: { openAPIV3Schema: unknown } }[] } };
    expect(r.crdTypes[0]?.root).toBe(alpha.spec.versions[0]?.schema.openAPIV3Schema);
  });

  it("keeps none past either budget, with another alias limit than the reader's default, or of an IAM file", () => {
    expect([...scanFiles([a, plain, c], { ...options, keepChars: crd("Alpha").length + 60 }).parsed.keys()]).toEqual([a]);
    expect([...scanFiles([a, plain, c], { ...options, keepParsedChars: crd("Alpha").length }).parsed.keys()]).toEqual([a]);
    expect(scanFiles([a, plain, c], { ...options, maxAliasCount: 5 }).parsed.size).toBe(0);
    expect(scanFiles([a, plain, c], { ...options, maxAliasCount: 100 }).parsed.size).toBe(2);
    const iamDir = mkdtempSync(join(sub, "iam-"));
    const iam = join(iamDir, "iam", "x.json");
    mkdirSync(join(iamDir, "iam"));
    writeFileSync(iam, JSON.stringify({ apiVersion: "apiextensions.k8s.io/v1", kind: "CustomResourceDefinition" }));
    const r = scanFiles([iam], { ...options, show: (f) => f.slice(iamDir.length + 1) });
    expect(r.texts.size).toBe(1);
    expect(r.parsed.size).toBe(0);
  });
});

describe("FactsByIndex", () => {
  it("gives files of the same facts one object, equal to each file's own", () => {
    const byIndex = new FactsByIndex(16);
    let next = 0;
    const shared = {
      of: (f: TextFacts) => {
        byIndex.set(next, f);
        return byIndex.get(next++);
      },
    };
    const a = textFacts("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n");
    const b = textFacts("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\n");
    const c = textFacts("apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n");
    const crd = textFacts("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: ws.example.com\n");
    const chart = textFacts("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  labels: {chart: karpenter-1.14.1}\n");
    expect(shared.of(a)).toBe(shared.of(b));
    expect(shared.of(a)).toEqual(a);
    for (const other of [c, crd, chart]) {
      expect(shared.of(other)).not.toBe(shared.of(a));
      expect(shared.of(other)).toEqual(other);
    }
  });
  it("never takes two different facts for the same, whatever control characters their strings hold", () => {
    const byIndex = new FactsByIndex(2);
    const a: TextFacts = { pairs: ["\u0001x"], charts: [], crd: false };
    const b: TextFacts = { pairs: [], charts: ["x\u0001"], crd: false };
    byIndex.set(0, a);
    byIndex.set(1, b);
    expect(byIndex.get(0)).toEqual(a);
    expect(byIndex.get(1)).toEqual(b);
  });
  it("tells a file the reader must judge (null) from one not recorded (undefined), by index", () => {
    const byIndex = new FactsByIndex(4);
    const a = textFacts("apiVersion: v1\nkind: Service\n");
    byIndex.set(0, a);
    byIndex.set(2, null);
    byIndex.set(3, a);
    expect(byIndex.get(0)).toEqual(a);
    expect(byIndex.get(1)).toBeUndefined();
    expect(byIndex.get(2)).toBeNull();
    expect(byIndex.get(3)).toBe(byIndex.get(0));
    // past the files it was made for: not recorded
    expect(byIndex.get(4)).toBeUndefined();
  });
});

describe("scanFilesShared", () => {
  // files of every kind the scan meets: block and JSON kinds, CRDs (two, so their order shows), charts, a binary
  // file, an empty one, a missing one
  const sub = mkdtempSync(join(dir, "shared-"));
  const crdText = (kind: string) =>
    `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: ${kind.toLowerCase()}s.example.com}\nspec:\n  group: example.com\n  names: {kind: ${kind}, plural: ${kind.toLowerCase()}s}\n  scope: Namespaced\n  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}]\n`;
  const texts: (string | Buffer | undefined)[] = [
    "apiVersion: v1\nkind: Service\n",
    crdText("Alpha"),
    '{"apiVersion": "apps/v1", "kind": "Deployment"}',
    Buffer.from([0x61, 0x00, 0x62]),
    "apiVersion: argoproj.io/v1alpha1\nkind: Application\nspec: {source: {chart: karpenter}}\n",
    "",
    undefined,
    crdText("Beta"),
    "apiVersion: policy/v1\nkind: PodDisruptionBudget\n",
  ];
  const files = texts.map((t, i) => {
    const file = join(sub, `f${i}.yaml`);
    if (t !== undefined) writeFileSync(file, t);
    return file;
  });
  const options = { maxFileBytes: 1 << 20, text: () => undefined, show: (f: string) => f.slice(sub.length + 1) };
  const facts = (i: number): TextFacts | null => {
    const text = scanRead(files[i] as string, options.maxFileBytes);
    return text === undefined ? null : textFacts(text);
  };
  /** A partner that scanned files below `meet` (this thread claims the rest), reporting only those `reported` keeps. */
  const partner = (meet: number, reported: (i: number) => boolean = () => true): ScanPartner & { claimed: number[] } => {
    const claimed: number[] = [];
    return {
      claimed,
      claimScan: (i) => {
        if (i < meet) return false;
        claimed.push(i);
        return true;
      },
      scanned: async () => {
        const byIndex = new FactsByIndex(files.length);
        for (let i = 0; i < meet; i++) if (reported(i)) byIndex.set(i, facts(i));
        return byIndex;
      },
    };
  };
  const summary = (r: ReturnType<typeof scanFiles>) => ({
    kinds: [...r.kindsByFile].map(([f, ps]) => [f, ps.map((p) => `${p.apiVersion} ${p.kind}`)]),
    crds: r.crdTypes,
    charts: [...r.charts],
  });
  const expected = summary(scanFiles(files, options));

  it("learns what scanFiles learns, in file order, wherever the two threads meet", async () => {
    expect(expected.crds.map((t) => t.gvk.kind)).toEqual(["Alpha", "Beta"]);
    for (let meet = 0; meet <= files.length; meet++) {
      const p = partner(meet);
      const r = await scanFilesShared(files, options, p);
      expect(summary(r), `meeting at ${meet}`).toEqual(expected);
      // this thread scanned from the last file down to the meeting point
      expect(p.claimed).toEqual(Array.from({ length: files.length - meet }, (_, k) => files.length - 1 - k));
    }
  });

  it("scans itself the files a worker claimed but never reported (it failed)", async () => {
    for (const meet of [3, files.length]) {
      const r = await scanFilesShared(files, options, partner(meet, (i) => i % 2 === 0));
      expect(summary(r)).toEqual(expected);
    }
  });

  it("keeps the documents of the CRD files it parsed with their texts", async () => {
    // no share for other texts
    const r = await scanFilesShared(files, { ...options, keepChars: 0 }, partner(4));
    expect([...r.parsed.keys()]).toEqual([files[1], files[7]]);
    expect([...r.texts.keys()]).toEqual([files[1], files[7]]);
    expect(r.texts.get(files[7] as string)).toBe(crdText("Beta"));
    expect(r.parsed.get(files[1] as string)).toEqual(loadFileText(files[1] as string, { cwd: sub }).docs);
    const none = await scanFilesShared(files, { ...options, keepChars: 0, keepParsedChars: 0 }, partner(4));
    expect(none.parsed.size + none.texts.size).toBe(0);
  });

  it("keeps the texts of the files it scanned when all fit in its share, so that the stream reads them once", async () => {
    // this thread scans files 8 down to 4: the PodDisruptionBudget, the CRD (kept with its documents), the missing
    // file, the empty one and the Application; the worker keeps texts of its own (files 0-3)
    const all = await scanFilesShared(files, { ...options, keepParsedChars: 0 }, partner(4));
    expect(new Map(all.texts)).toEqual(new Map([4, 5, 8].map((i) => [files[i], texts[i]])));
    // a share one character short: none of them (the last files' texts would be held through the whole stream)
    const size = (texts[4] as string).length + (texts[8] as string).length;
    const short = await scanFilesShared(files, { ...options, keepParsedChars: 0, keepChars: size - 1 }, partner(4));
    expect(short.texts.size).toBe(0);
    const exact = await scanFilesShared(files, { ...options, keepParsedChars: 0, keepChars: size }, partner(4));
    expect([...exact.texts.keys()].sort()).toEqual([4, 5, 8].map((i) => files[i]).sort());
    // stdin's text is never kept for the stream (the reader keeps it itself)
    const withStdin = [...files, "-"];
    const stdin = await scanFilesShared(withStdin, { ...options, keepParsedChars: 0, text: () => "apiVersion: v1\nkind: ConfigMap\n" }, partner(4));
    expect(stdin.kindsByFile.get("-")).toEqual([{ apiVersion: "v1", kind: "ConfigMap" }]);
    expect(new Map(stdin.texts)).toEqual(new Map(all.texts));
  });
});
