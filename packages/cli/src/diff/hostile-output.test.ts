// Names, kinds and namespaces from rendered YAML are user-controlled: the diff's text, Markdown and JSON never let them
// forge a workflow command, colour a terminal, reorder text, break the comment's HTML or tables, or pass --limit.
import { describe, expect, it } from "vitest";
import { parse as parseMarkdown } from "yaml";
import { diffRendered } from "./changes.ts";
import { formatJson, formatMarkdown, formatText } from "./format.ts";

const labels = { base: "main", head: "working tree" };
const configMap = (name: string, kind = "ConfigMap", data = "a") =>
  `apiVersion: v1\nkind: ${JSON.stringify(kind)}\nmetadata:\n  name: ${JSON.stringify(name)}\n  namespace: web\ndata:\n  key: ${JSON.stringify(data)}\n`;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what must not reach the output
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;

const HOSTILE = {
  workflow: "x\n::error file=README.md::pwned",
  esc: "x\u001b[31mred\u001b]8;;https://evil.example\u0007",
  bidi: "abc\u202etxt.exe",
  details: "x</code></summary></details>\n\n# Approved by @admin [click](https://evil.example)",
  pipe: "a|b`c``d",
};

function diffOf(names: Record<string, string>, kind = "ConfigMap") {
  const head = new Map(Object.entries(names).map(([id, name]) => [`clusters/demo/rendered/workload-web/core_v1_configmap_web_${id}.yaml`, configMap(name, kind, name)]));
  return diffRendered(new Map(), head);
}

describe("hostile names in diff output", () => {
  const d = diffOf(HOSTILE);
  const text = formatText(d, labels, { color: false });
  const markdown = formatMarkdown(d, labels);

  it("text: one line per object, no workflow command at a line start, no ESC, no bidi control", () => {
    expect(text.split("\n").filter((l) => /^\s*::/.test(l))).toEqual([]);
    expect(text).not.toMatch(UNSAFE);
    expect(text).toContain("    [+] ConfigMap web/x\\n::error file=README.md::pwned");
    expect(text).toContain("    [+] ConfigMap web/abc\\u202etxt.exe");
  });

  it("Markdown: no raw newline inside a summary, no tag, heading, link, mention or table cell from a name", () => {
    // what is inside the fenced hunks is code, shown as text: the rest is what GitHub renders
    const rendered = markdown.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, "");
    expect(rendered).not.toContain("pwned\n");
    const summaries = [...markdown.matchAll(/<summary>(.*?)<\/summary>/g)].map((m) => m[1]!);
    expect(summaries).toHaveLength(Object.keys(HOSTILE).length);
    expect(rendered.match(/<details>/g)).toHaveLength(5);
    expect(rendered.match(/<\/details>/g)).toHaveLength(5);
    expect(rendered).not.toMatch(/^# Approved/m);
    expect(rendered).not.toContain("@admin");
    expect(rendered).not.toContain("[click]");
    expect(markdown).not.toMatch(UNSAFE);
    expect(summaries.join("\n")).toContain("<code>web/a&#124;b&#96;c&#96;&#96;d</code>");
    // every line outside the fenced hunks that ends a summary is one whole <details><summary>...</summary> line
    for (const s of summaries) expect(s).not.toContain("\n");
  });

  it("Markdown: a kind with | and backticks keeps the per-kind table at four cells a row", () => {
    const k = diffOf({ a: "a" }, "Ki|nd`x");
    const rows = formatMarkdown(k, labels).split("\n").filter((l) => l.startsWith("| "));
    expect(rows).toEqual(["| kind | added | changed | removed |", "| Ki&#124;nd&#96;x | 1 | 0 | 0 |"]);
  });

  it("JSON stays data: the names round-trip exactly, escaped by JSON", () => {
    const json = JSON.parse(formatJson(d, labels)) as { changes: { name: string }[] };
    expect(json.changes.map((c) => c.name).sort()).toEqual(Object.values(HOSTILE).sort());
    expect(formatJson(d, labels)).not.toContain("\u001b");
    expect(parseMarkdown(formatJson(d, labels))).toBeTruthy();
  });
});

describe("the whole comment fits --limit", () => {
  it("the per-kind table is cut too (… and N more kinds), and long names are shortened", () => {
    const long = `n${"x".repeat(250)}`;
    const head = new Map(
      Array.from({ length: 400 }, (_, i) => [`clusters/demo/rendered/workload-web/x_v1_kind${i}_web_${i}.yaml`, configMap(long, `Kind${i}${"K".repeat(40)}`)] as const),
    );
    const d = diffRendered(new Map(), head);
    for (const limit of [2_000, 10_000, 65_536]) {
      const md = formatMarkdown(d, labels, { limit });
      expect(md.length).toBeLessThanOrEqual(limit);
      expect(md).toContain("Cut at");
      if (limit < 65_536) expect(md).toMatch(/\| … and \d+ more kinds \| \| \| \|\n/);
    }
    // headings and summaries (the hunks below them show the YAML as it is)
    const md = formatMarkdown(d, labels, { limit: 65_536 }).replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, "");
    expect(md).not.toContain(long);
    expect(md).toContain(`<code>web/n${"x".repeat(55)}…${"x".repeat(59)}</code>`);
  });
});
