// The corpus of overlay mistakes (src/overlay-mistakes/*.mistake): each edits the eksworkshop overlay and says
// what synth must report, at which line and column of cluster.ts, in text and as GitHub annotations.
//
// A fixture: a leading `# what it is` comment; blocks of `- old line` then `+ new line` (each old text occurs
// exactly once in cluster.ts); `! exit N`; one `= LINE:COL <object> invalid <path>: <message> (fix: <hint>) [<rule>]`
// line per error, as the text output prints it after `clusters/eksworkshop/cluster.ts:`.
// UPDATE_MISTAKES=1 rewrites the expectations from what synth prints (review the diff).
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
// the annotation's title carries validate's short rule id (a CEL rule's is a hash of its text)
import { ruleInfo } from "../../validate/src/output/rules.ts";
import { main } from "./bin.ts";
import { captureOutput } from "./testing/capture.ts";

// each mistake loads an overlay; the ones only the in-memory validation catches also load the schemas
vi.setConfig({ testTimeout: 120_000 });

const REPO = resolve(import.meta.dirname, "../../..");
const DIR = join(import.meta.dirname, "overlay-mistakes");
const FILE = "clusters/eksworkshop/cluster.ts";
const output = captureOutput();

interface Mistake {
  readonly name: string;
  readonly what: string;
  readonly edits: readonly { readonly old: string; readonly new: string }[];
  readonly exit: number | undefined;
  readonly expected: readonly string[];
}

function parseMistake(name: string, text: string): Mistake {
  const lines = text.split("\n");
  const what = (lines[0] ?? "").replace(/^# /, "");
  const edits: { old: string; new: string }[] = [];
  let old: string[] = [];
  let next: string[] = [];
  const flush = () => {
    if (old.length > 0 || next.length > 0) edits.push({ old: old.join("\n"), new: next.join("\n") });
    old = [];
    next = [];
  };
  let exit: number | undefined;
  const expected: string[] = [];
  for (const line of lines.slice(1)) {
    if (line.startsWith("- ")) {
      if (next.length > 0) flush();
      old.push(line.slice(2));
    } else if (line.startsWith("+ ")) next.push(line.slice(2));
    else if (line.startsWith("! exit ")) exit = Number(line.slice(7));
    else if (line.startsWith("= ")) expected.push(line.slice(2));
    else flush();
  }
  flush();
  return { name, what, edits, exit, expected };
}

const mistakes = readdirSync(DIR)
  .filter((f) => f.endsWith(".mistake"))
  .sort()
  .map((f) => parseMistake(f.replace(/\.mistake$/, ""), readFileSync(join(DIR, f), "utf8")));

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "overlay-mistakes-"));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A repository root holding the eksworkshop overlay with the mistake's edits. */
function repoWith(m: Mistake): string {
  const root = join(work, m.name);
  mkdirSync(join(root, "clusters"), { recursive: true });
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages: []\n");
  writeFileSync(join(root, "clusters/package.json"), '{ "type": "module" }\n');
  cpSync(join(REPO, "clusters/eksworkshop"), join(root, "clusters/eksworkshop"), { recursive: true });
  symlinkSync(join(REPO, "clusters/node_modules"), join(root, "clusters/node_modules"));
  let source = readFileSync(join(REPO, FILE), "utf8");
  for (const e of m.edits) {
    expect(source.split(e.old).length - 1, `${m.name}: '${e.old}' must occur once in ${FILE}`).toBe(1);
    source = source.replace(e.old, e.new);
  }
  writeFileSync(join(root, FILE), source);
  return root;
}

// GitHub workflow-command escaping, as validate's formatter does it
const ghData = (s: string) => s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
const ghProp = (s: string) => ghData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");

/** The annotation validate's github format prints for one expected text line. */
function annotation(expected: string): string {
  // a CEL rule's id is its text, brackets included
  const m = /^(\d+):(\d+) (\S+) invalid (.*?): (.*?)(?: \(fix: (.*?)\))? \[(cel:.*|[^\]]+)\]$/.exec(expected);
  if (!m) throw new Error(`cannot read expectation: ${expected}`);
  const [, line, column, object, path, message, hint, rule] = m;
  return `::error file=${FILE},line=${line},col=${column},title=${ghProp(`${object} ${ruleInfo(rule as string).id}`)}::${ghData(`${path}: ${message}${hint ? ` (fix: ${hint})` : ""}`)}`;
}

describe.each(mistakes)("overlay mistake $name", (m) => {
  it(`${m.what}: reported at its line of cluster.ts, in text and as GitHub annotations`, async () => {
    const root = repoWith(m);
    const code = await main(["synth", "--root", root, "--cluster", "eksworkshop"]);
    const text = output.err
      .split("\n")
      .filter((l) => l.startsWith(`${FILE}:`) && / invalid /.test(l))
      .map((l) => l.slice(FILE.length + 1));
    // every finding synth reports (errors and warnings, on the overlay or on its unwritten render) names cluster.ts first
    const closing = /^(Summary: |the render is invalid|\d+ problems? in |$)/;
    expect(output.err.split("\n").filter((l) => !closing.test(l) && !l.startsWith(`${FILE}:`))).toEqual([]);
    if (process.env.UPDATE_MISTAKES === "1") {
      const body = readFileSync(join(DIR, `${m.name}.mistake`), "utf8").replace(/^[=!] .*\n/gm, "");
      writeFileSync(join(DIR, `${m.name}.mistake`), `${body.trimEnd()}\n\n! exit ${code}\n${text.map((l) => `= ${l}\n`).join("")}`);
      return;
    }
    expect(m.expected.length, "a mistake expects at least one error").toBeGreaterThan(0);
    expect({ code, text }).toEqual({ code: m.exit, text: m.expected });

    output.out = "";
    output.err = "";
    expect(await main(["synth", "--root", root, "--cluster", "eksworkshop", "--output", "github"])).toBe(m.exit);
    const annotations = output.out.split("\n").filter((l) => l.startsWith("::error "));
    expect(annotations).toEqual(m.expected.map(annotation));
  });
});
