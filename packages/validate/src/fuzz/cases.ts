// Fuzz inputs: structure-aware mutations of the rendered output and the fixtures, hostile YAML, hostile CRDs and
// filesystem cases, as fast-check arbitraries. Each case is a small tree of files (and --crd files) to validate.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import fc from "fast-check";
import { dump, load } from "js-yaml";

const PACKAGE = resolve(import.meta.dirname, "../..");
const REPO = resolve(PACKAGE, "../..");

/** One file of a case: text or raw bytes, or a special file. */
export type FuzzFile =
  | { readonly path: string; readonly content: string | Uint8Array }
  | { readonly path: string; readonly special: "fifo" | "dangling-link" | "dir-link-loop" | "dir" };

export interface FuzzCase {
  /** What generated it (shown for the slowest input and for failures). */
  readonly label: string;
  readonly files: readonly FuzzFile[];
  /** Paths (relative to the case folder) passed as --crd. */
  readonly crd?: readonly string[];
}

export interface Seed {
  readonly path: string;
  readonly text: string;
}

function walk(dir: string, out: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const e of entries) {
    const full = join(dir, e);
    if (statSync(full).isDirectory()) walk(full, out);
    else if (/\.(ya?ml|json)$/.test(e)) out.push(full);
  }
}

/** The committed rendered output of every overlay and the validator's fixtures. */
export function loadSeeds(): Seed[] {
  const files: string[] = [];
  for (const cluster of readdirSync(join(REPO, "clusters")).sort()) walk(join(REPO, "clusters", cluster, "rendered"), files);
  walk(join(PACKAGE, "fixtures"), files);
  return files.map((f) => ({ path: relative(REPO, f), text: readFileSync(f, "utf8") }));
}

/** Size limits of the generators: 1 for `pnpm fuzz`, smaller for the seeded run inside `pnpm test`. */
let scale = 1;
const S = (n: number) => Math.max(2, Math.round(n * scale));

const CONTROL = fc.constantFrom("\u0000", "\u0007", "\u001b[31m", "\u001b]0;x\u0007", "\r", "\n::error file=x::forged\n", "\nSummary: 0 resources found\n", "\u0085", "\u2028", "\u202e", "\ud800", "\t");
const WEIRD_STRING = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.tuple(fc.string({ maxLength: 8 }), CONTROL, fc.string({ maxLength: 8 })).map(([a, c, b]) => `${a}${c}${b}`),
  fc.constantFrom("yes", "no", "on", "off", "y", "n", "0755", "012345678901", "1_000", "1e400", "-0", ".nan", "2024-01-02", "~", "null", "<<", "*", "&", "!!int", "'", '"', "hunter2-PLAINTEXT!!"),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => "x".repeat(S(n))),
);

/** A value that stresses a schema stage: wrong types, huge, deep, weird numbers. */
const HOSTILE_VALUE: fc.Arbitrary<unknown> = fc.oneof(
  WEIRD_STRING,
  fc.constantFrom(null, true, false, 0, -1, 2 ** 53 + 1, 1e308, -1e-308, 0.5, Number.MAX_SAFE_INTEGER, [], {}),
  // deeper documents are generated as text (hostileYaml): these go through the generator's own recursion
  fc.integer({ min: 1, max: 600 }).map((d) => {
    let v: unknown = "leaf";
    for (let i = 0; i < S(d); i++) v = i % 2 ? [v] : { k: v };
    return v;
  }),
  fc.integer({ min: 10, max: 3_000 }).map((n) => Array.from({ length: S(n) }, (_, i) => ({ key: `k${i % 7}`, operator: "In", values: [`v${i}`] }))),
  fc.jsonValue({ maxDepth: 4 }),
);

type Json = Record<string, unknown>;

/** Every path to a value inside a document (bounded). */
function paths(v: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = [], limit = 400): (string | number)[][] {
  if (out.length >= limit) return out;
  out.push(prefix);
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) paths(x, [...prefix, i], out, limit);
  }
  else if (typeof v === "object" && v !== null) for (const [k, x] of Object.entries(v)) paths(x, [...prefix, k], out, limit);
  return out;
}

function setAt(doc: unknown, path: (string | number)[], value: unknown, op: "set" | "delete" | "add"): unknown {
  if (path.length === 0) return op === "set" ? value : doc;
  const copy = structuredClone(doc) as Json;
  let node: Json = copy;
  for (const seg of path.slice(0, -1)) node = node[seg as string] as Json;
  const last = path.at(-1) as string;
  if (op === "delete") {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else if (op === "add" && typeof node[last] === "object" && node[last] !== null && !Array.isArray(node[last])) (node[last] as Json)[`unknown${Object.keys(node[last] as Json).length}`] = value;
  else node[last] = value;
  return copy;
}

/** Structure-aware: read a seed, change values at random paths, write it back as YAML or JSON. */
const structuralMutation = (seeds: readonly Seed[]) =>
  fc
    .record({
      seed: fc.constantFrom(...seeds),
      edits: fc.array(fc.record({ at: fc.nat(), op: fc.constantFrom("set", "delete", "add") as fc.Arbitrary<"set" | "delete" | "add">, value: HOSTILE_VALUE }), { minLength: 1, maxLength: 3 }),
      json: fc.boolean(),
    })
    .map(({ seed, edits, json }): FuzzCase => {
      let doc: unknown;
      try {
        doc = seed.path.endsWith(".json") ? JSON.parse(seed.text) : load(seed.text.split(/^---$/m)[0] ?? "");
      } catch {
        doc = {};
      }
      for (const e of edits) {
        const all = paths(doc);
        doc = setAt(doc, all[e.at % all.length] ?? [], e.value, e.op);
      }
      let text: string;
      try {
        text = json || seed.path.endsWith(".json") ? JSON.stringify(doc) : dump(doc, { noRefs: true, lineWidth: -1 });
      } catch {
        text = JSON.stringify(doc) ?? "null";
      }
      const name = seed.path.includes("/iam/") ? `iam/${seed.path.split("/").at(-1)}` : `m/${seed.path.split("/").at(-1)}`;
      return { label: `mutate ${seed.path} (${edits.map((e) => e.op).join(",")})`, files: [{ path: name, content: text }] };
    });

/** Text-level damage to a seed: tags, anchors, duplicate lines, BOM, CRLF, tabs, truncation, invalid UTF-8. */
const textMutation = (seeds: readonly Seed[]) =>
  fc
    .record({
      seed: fc.constantFrom(...seeds),
      kind: fc.constantFrom("tag", "anchor", "duplicate-line", "bom", "crlf", "tabs", "truncate", "utf8", "nul", "complex-key", "control"),
      at: fc.nat(),
      tag: fc.constantFrom("!!int x", "!!bool maybe", "!!js/function 'f(){}'", "!custom v", "!!binary aGVsbG8=", "!!set {a}", "!!omap [{a: 1}]", "!<tag:yaml.org,2002:str> s", "!!float 1", "!!str 5"),
      control: CONTROL,
    })
    .map(({ seed, kind, at, tag, control }): FuzzCase => {
      const lines = seed.text.split("\n");
      const i = lines.length > 0 ? at % lines.length : 0;
      const line = lines[i] ?? "";
      let content: string | Uint8Array;
      switch (kind) {
        case "tag":
          lines[i] = line.replace(/: (\S.*)$/, `: ${tag}`);
          content = lines.join("\n");
          break;
        case "anchor":
          lines[i] = line.replace(/: (\S.*)$/, ": &a $1");
          lines.push(...Array.from({ length: at % 50 }, (_, k) => `x${k}: *a`));
          content = lines.join("\n");
          break;
        case "duplicate-line":
          lines.splice(i, 0, line);
          content = lines.join("\n");
          break;
        case "bom":
          content = `\ufeff${seed.text}`;
          break;
        case "crlf":
          content = seed.text.replace(/\n/g, "\r\n");
          break;
        case "tabs":
          content = seed.text.replace(/^( +)/gm, (s) => "\t".repeat(Math.ceil(s.length / 2)));
          break;
        case "truncate":
          content = seed.text.slice(0, at % (seed.text.length + 1));
          break;
        case "utf8": {
          const bytes = Buffer.from(seed.text);
          const pos = bytes.length > 0 ? at % bytes.length : 0;
          content = Buffer.concat([bytes.subarray(0, pos), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]), bytes.subarray(pos)]);
          break;
        }
        case "nul":
          content = `${seed.text.slice(0, at % (seed.text.length + 1))}\u0000${seed.text.slice(at % (seed.text.length + 1))}`;
          break;
        case "complex-key":
          lines.splice(i, 0, at % 2 ? "? [a, b]\n: c" : "{x: 1}: y");
          content = lines.join("\n");
          break;
        default:
          lines[i] = `${line}${control}`;
          content = lines.join("\n");
      }
      const name = seed.path.endsWith(".json") && seed.path.includes("/iam/") ? `iam/${seed.path.split("/").at(-1)}` : `t/${kind}-${seed.path.split("/").at(-1)}`;
      return { label: `${kind} ${seed.path}`, files: [{ path: name, content }] };
    });

const HEAD = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: fuzz, namespace: default}\n";

/** YAML written to hurt a parser: alias fans, deep nesting, huge scalars, many documents. */
const hostileYaml = fc.oneof(
  fc.record({ n: fc.integer({ min: 1, max: 100_000 }), refs: fc.integer({ min: 1, max: 5_000 }), scalar: fc.boolean() }).map(({ n: n0, refs: refs0, scalar }): FuzzCase => {
    const [n, refs] = [S(n0), S(refs0)];
    const anchor = scalar ? "y".repeat(n) : `[${Array(Math.min(n, 50_000)).fill("a").join(",")}]`;
    const text = `${HEAD}x: &big ${anchor}\ndata:\n${Array.from({ length: refs }, (_, i) => `  k${i}: *big`).join("\n")}\n`;
    return { label: `alias fan ${n}x${refs}${scalar ? " (string)" : ""}`, files: [{ path: "alias.yaml", content: text }] };
  }),
  fc.record({ depth: fc.integer({ min: 1, max: 6 }), width: fc.integer({ min: 2, max: 12 }) }).map(({ depth, width }): FuzzCase => {
    // billion laughs: each level a list of `width` aliases to the level below
    const rows = ["l0: &l0 [lol, lol]"];
    for (let d = 1; d <= depth; d++) rows.push(`l${d}: &l${d} [${Array(width).fill(`*l${d - 1}`).join(", ")}]`);
    return { label: `laughs ${depth}x${width}`, files: [{ path: "laughs.yaml", content: `${HEAD}data:\n${rows.map((r) => `  ${r}`).join("\n")}\n` }] };
  }),
  fc.record({ depth: fc.integer({ min: 10, max: 6_000 }), flow: fc.boolean() }).map(({ depth: d0, flow }): FuzzCase => {
    // deep enough to pass the nesting limit even when scaled down
    const depth = Math.max(d0 > 3_000 ? 1_100 : 2, S(d0));
    const text = flow
      ? `${HEAD}data: ${"[".repeat(depth)}${"]".repeat(depth)}\n`
      : `${HEAD}x:\n${Array.from({ length: Math.min(depth, 1500) }, (_, i) => `${" ".repeat(i + 1)}k:`).join("\n")} v\n`;
    return { label: `deep ${flow ? "flow" : "block"} ${depth}`, files: [{ path: "deep.yaml", content: text }] };
  }),
  fc.integer({ min: 10_000, max: 2_000_000 }).map((n): FuzzCase => ({ label: `huge scalar ${S(n)}`, files: [{ path: "huge.yaml", content: `${HEAD}data: {a: ${"z".repeat(S(n))}}\n` }] })),
  fc.integer({ min: 1, max: 3_000 }).map(S).map((n): FuzzCase => ({ label: `${n} documents`, files: [{ path: "many.yaml", content: Array.from({ length: n }, (_, i) => `${HEAD.replace("fuzz", `f${i}`)}---`).join("\n") }] })),
  fc.integer({ min: 1, max: 5_000 }).map((d): FuzzCase => ({ label: `deep IAM JSON ${d}`, files: [{ path: "iam/deep.json", content: `{"Version":"2012-10-17","Statement":${"[".repeat(d)}${"]".repeat(d)}}` }] })),
  fc.constantFrom<FuzzCase>(
    { label: "IAM duplicate key", files: [{ path: "iam/dup.json", content: '{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Effect":"Allow","Action":"*","Resource":"*"}]}' }] },
    { label: "empty", files: [{ path: "empty.yaml", content: "" }] },
    { label: "only separators", files: [{ path: "sep.yaml", content: "---\n---\n...\n" }] },
    { label: "scalar document", files: [{ path: "scalar.yaml", content: "hello\n" }] },
    { label: "secret value", files: [{ path: "secret.yaml", content: "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: default}\ndata: {p: hunter2-PLAINTEXT!!}\nstringData: {q: 12345678}\n" }] },
  ),
);

const BAD_SCHEMAS: unknown[] = [
  { type: "string", pattern: "(?=a)a" },
  { type: "string", pattern: "([" },
  { type: "string", maxLength: "5" },
  { type: "integer", minimum: "abc" },
  { type: "string", enum: "x" },
  { type: "nonsense" },
  { $ref: "#/definitions/missing" },
  { type: "array", items: "x" },
  { type: "object", properties: "x" },
  { type: "object", "x-kubernetes-validations": [null, { rule: 5 }] },
  { type: "object", "x-kubernetes-validations": [{ rule: "self.l.all(x, self.l.all(y, self.l.all(z, x + y + z != '')))" }], properties: { l: { type: "array", items: { type: "string" } } } },
  { type: "object", "x-kubernetes-validations": [{ rule: "self.l.map(x, self.l.map(y, x + y)).size() > 0" }], properties: { l: { type: "array", items: { type: "string" } } } },
  { type: "object", "x-kubernetes-validations": [{ rule: "self.l.all(x, self.l.all(y, x != ''))" }], properties: { l: { type: "array", maxItems: 1000, items: { type: "string", maxLength: 8 } } } },
  { type: "object", "x-kubernetes-validations": [{ rule: "self.(((" }, { rule: "1 + 'a' == 2" }, { rule: "self.missing.field == 1" }], properties: { l: { type: "array" } } },
  null,
];

/** A CRD with a broken or expensive schema, an object of its kind, and a valid ConfigMap; in the documents or as --crd. */
const hostileCrd = fc
  .record({ schema: fc.constantFrom(...BAD_SCHEMAS), items: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constant(1_200)), asFlag: fc.boolean(), extra: fc.option(HOSTILE_VALUE, { nil: undefined }) })
  .map(({ schema, items, asFlag, extra }): FuzzCase => {
    const openAPIV3Schema = schema === null ? null : { type: "object", properties: { apiVersion: { type: "string" }, kind: { type: "string" }, metadata: { type: "object" }, spec: schema } };
    const crd = JSON.stringify({
      apiVersion: "apiextensions.k8s.io/v1",
      kind: "CustomResourceDefinition",
      metadata: { name: "things.example.com" },
      spec: { group: "example.com", scope: "Cluster", names: { kind: "Thing", plural: "things" }, versions: [{ name: "v1", served: true, storage: true, schema: { openAPIV3Schema } }] },
    });
    const spec = { l: Array.from({ length: items }, (_, i) => `v${i}`), ...(extra !== undefined ? { extra } : {}) };
    const object = JSON.stringify({ apiVersion: "example.com/v1", kind: "Thing", metadata: { name: "t" }, spec });
    return {
      label: `crd ${JSON.stringify(schema).slice(0, 60)} (${items} items${asFlag ? ", --crd" : ""})`,
      files: [{ path: asFlag ? "crds/thing.json" : "crd.json", content: crd }, { path: "thing.json", content: object }, { path: "cm.yaml", content: HEAD }],
      ...(asFlag ? { crd: ["crds/thing.json"] } : {}),
    };
  });

/** Broken --crd files: must be a usage error (exit 2), never a crash. */
const badCrdFlag = fc
  .oneof(
    fc.uint8Array({ maxLength: 64 }).map((b) => ({ name: "bin.yaml", content: b as Uint8Array | string })),
    fc.constantFrom(
      { name: "bad.yaml", content: "kind: [\n" },
      { name: "cyclic.yaml", content: "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: &s {x: *s}\n" },
      { name: "bad.json", content: "{" },
      { name: "tag.yaml", content: "a: !!int x\n" },
    ),
  )
  .map(({ name, content }): FuzzCase => ({ label: `--crd ${name}`, files: [{ path: `crds/${name}`, content }, { path: "cm.yaml", content: HEAD }], crd: [`crds/${name}`] }));

/** Symbolic links, FIFOs, folders named like files, control characters in file names. */
const filesystem = fc
  .record({ special: fc.constantFrom("fifo", "dangling-link", "dir-link-loop", "dir") as fc.Arbitrary<"fifo" | "dangling-link" | "dir-link-loop" | "dir">, name: fc.oneof(fc.constant("x.yaml"), CONTROL.map((c) => `n${c.replaceAll("\u0000", "").replaceAll("/", "")}.yaml`)) })
  .map(({ special, name }): FuzzCase => ({ label: `fs ${special}`, files: [{ path: `fs/${name}`, special }, { path: "fs/ok.yaml", content: HEAD }] }));

/**
 * Every kind of case, weighted towards mutations of real files. `sizeScale` shrinks the large inputs (alias fans,
 * huge scalars, long lists) for a quick run; the limits that must be crossed (nesting depth, alias budget) still are.
 */
export function fuzzCases(seeds: readonly Seed[], sizeScale = 1): fc.Arbitrary<FuzzCase> {
  scale = sizeScale;
  return fc.oneof(
    { arbitrary: structuralMutation(seeds), weight: 6 },
    { arbitrary: textMutation(seeds), weight: 5 },
    { arbitrary: hostileYaml, weight: 3 },
    { arbitrary: hostileCrd, weight: 2 },
    { arbitrary: badCrdFlag, weight: 1 },
    { arbitrary: filesystem, weight: 1 },
  );
}
