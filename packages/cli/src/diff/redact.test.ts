// Secret values never reach a diff: text, Markdown (the PR comment) and JSON show only that a key changed and its length.
import { describe, expect, it } from "vitest";
import { diffRendered } from "./changes.ts";
import { formatJson, formatMarkdown, formatText } from "./format.ts";

const P = "clusters/demo/rendered/workload-web/core_v1_secret_web_db.yaml";
const secret = (data: Record<string, string>, stringData: string) =>
  `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  namespace: web\ntype: Opaque\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join("\n")}\nstringData:\n${stringData}`;

const OLD_B64 = "aHVudGVyMi1QTEFJTlRFWFQhIQ=="; // hunter2-PLAINTEXT!!
const NEW_B64 = "c3dvcmRmaXNoLVBMQUlOVEVYVCEh"; // swordfish-PLAINTEXT!!
const before = secret({ password: OLD_B64, user: "YWRtaW4=" }, "  token: hunter2-PLAINTEXT!!\n  config: |\n    secret-line-1\n    secret-line-2\n");
const after = secret({ password: NEW_B64, user: "YWRtaW4=", added: "bmV3LXZhbHVl" }, "  token: hunter3-PLAINTEXT!!\n  config: |\n    secret-line-1\n    secret-line-3\n");
const LEAKS = ["hunter", "swordfish", OLD_B64, NEW_B64, "YWRtaW4=", "admin", "bmV3LXZhbHVl", "new-value", "secret-line", "PLAINTEXT"];

const labels = { base: "main", head: "working tree" };
const all = (d: ReturnType<typeof diffRendered>) => [formatText(d, labels), formatMarkdown(d, labels), formatJson(d, labels)];

describe("Secret values in the rendered diff", () => {
  it("a changed Secret shows which keys changed and their lengths, never a value, in every format", () => {
    const d = diffRendered(new Map([[P, before]]), new Map([[P, after]]));
    for (const out of all(d)) for (const leak of LEAKS) expect(out).not.toContain(leak);
    expect(d.changes[0]!.hunks).toEqual([
      "@@ -5,8 +5,9 @@",
      "   namespace: web",
      " type: Opaque",
      " data:",
      '-  password: "(redacted: 28 bytes)"',
      '+  password: "(redacted: 28 bytes, changed)"',
      '   user: "(redacted: 8 bytes)"',
      '+  added: "(redacted: 12 bytes)"',
      " stringData:",
      '-  token: "(redacted: 19 bytes)"',
      '-  config: "(redacted: 28 bytes)"',
      '+  token: "(redacted: 19 bytes, changed)"',
      '+  config: "(redacted: 28 bytes, changed)"',
    ]);
    expect(d.changes[0]).toMatchObject({ change: "changed", kind: "Secret", name: "db", namespace: "web" });
  });

  it("an added or removed Secret lists its keys without values", () => {
    for (const d of [diffRendered(new Map(), new Map([[P, after]])), diffRendered(new Map([[P, before]]), new Map())]) {
      for (const out of all(d)) for (const leak of LEAKS) expect(out).not.toContain(leak);
      expect(d.changes[0]!.hunks.join("\n")).toContain('  password: "(redacted: 28 bytes)"');
    }
  });

  it("a Secret that does not parse is not shown at all", () => {
    const broken = `${after}  bad: [unclosed\n`;
    const d = diffRendered(new Map([[P, before]]), new Map([[P, broken]]));
    for (const out of all(d)) for (const leak of LEAKS) expect(out).not.toContain(leak);
    expect(d.changes[0]!.hunks).toContain(`+# does not parse and may hold a Secret: content not shown (${Buffer.byteLength(broken)} bytes)`);
  });

  it("also hides a Secret's last-applied-configuration annotation (it holds the whole object, values included)", () => {
    const withAnnotation = (v: string) =>
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"${v}"}}'\n    team: web\ndata:\n  password: ${v}\n`;
    const d = diffRendered(new Map([[P, withAnnotation(OLD_B64)]]), new Map([[P, withAnnotation(NEW_B64)]]));
    for (const out of all(d)) for (const leak of LEAKS) expect(out).not.toContain(leak);
    expect(d.changes[0]!.hunks).toContain('+    kubectl.kubernetes.io/last-applied-configuration: "(redacted: 52 bytes, changed)"');
    expect(d.changes[0]!.hunks).toContain("     team: web");
  });

  it("leaves other kinds alone (a ConfigMap's data is shown)", () => {
    const cm = (v: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  key: ${v}\n`;
    const d = diffRendered(new Map([["clusters/demo/rendered/x/core_v1_configmap_c.yaml", cm("one")]]), new Map([["clusters/demo/rendered/x/core_v1_configmap_c.yaml", cm("two")]]));
    expect(d.changes[0]!.hunks).toContain("+  key: two");
  });
});

describe("Secret redaction is decided on the decoded object", () => {
  const leaks = (d: ReturnType<typeof diffRendered>) => all(d).filter((out) => LEAKS.some((l) => out.includes(l)));

  it.each([
    ["a kind written with a hex escape", after.replace("kind: Secret", 'kind: "\\x53ecret"')],
    ["a kind written with a unicode escape", after.replace("kind: Secret", 'kind: "\\u0053ecret"')],
    ["a kind with a comment", after.replace("kind: Secret", "kind: Secret # the database password")],
    ["a kind key written with an escape", after.replace("kind: Secret", '"\\x6bind": Secret')],
    ["a kind from an alias", `x: &k Secret\n${after.replace("kind: Secret", "kind: *k")}`],
  ])("%s: values redacted in text, Markdown and JSON", (_what, text) => {
    const d = diffRendered(new Map([[P, before]]), new Map([[P, text]]));
    expect(leaks(d)).toEqual([]);
    expect(d.changes[0]!.hunks.join("\n")).toContain('password: "(redacted: 28 bytes, changed)"');
  });

  it.each([
    ["a commented kind line", after.replace("kind: Secret", "kind: Secret # db")],
    ["a quoted kind", after.replace("kind: Secret", "kind: 'Secret'")],
    ["an escaped kind", after.replace("kind: Secret", 'kind: "\\x53ecret"')],
  ])("a file that does not parse and mentions Secret (%s): nothing of it is shown, in any format", (_what, text) => {
    const broken = `${text}  bad: [unclosed\n`;
    for (const d of [diffRendered(new Map([[P, before]]), new Map([[P, broken]])), diffRendered(new Map(), new Map([[P, broken]]))]) {
      expect(leaks(d)).toEqual([]);
      expect(d.changes[0]!.hunks.at(-1)).toBe(`+# does not parse and may hold a Secret: content not shown (${Buffer.byteLength(broken)} bytes)`);
    }
  });
});
