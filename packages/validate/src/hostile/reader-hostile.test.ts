// Hostile input to the reader (issue 14 items 3, 5, 8, 9, 10, 11): each case once crashed, hung or passed wrongly.
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDocuments, parseText } from "../reader.ts";
import { MAX_NESTING_DEPTH, scanJson } from "./json.ts";

const parse = (text: string) => parseText({ file: "in.yaml", text });
const findings = (text: string) => parse(text).unreadable.flatMap((u) => u.findings.map((f) => [u.index, f.rule, f.message]));
const NS = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n";

describe("alias guard counts scalars (item 3)", () => {
  it("stops one 100,000-scalar anchor referenced 2,000 times", () => {
    const anchor = `[${Array(100_000).fill("a").join(",")}]`;
    const refs = Array.from({ length: 2000 }, (_, i) => `  k${i}: *big`).join("\n");
    const text = `${NS}x: &big ${anchor}\ndata:\n${refs}\n`;
    expect(text.length).toBeLessThan(260_000);
    const { resources, unreadable } = parse(text);
    expect(resources).toEqual([]);
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:alias-limit");
  });

  it("stops a long string referenced many times", () => {
    const text = `${NS}x: &s ${"y".repeat(100_000)}\ndata:\n${Array.from({ length: 2000 }, (_, i) => `  k${i}: *s`).join("\n")}\n`;
    expect(parse(text).unreadable[0]?.findings[0]?.rule).toBe("parse:alias-limit");
  });

  it("still reads ordinary anchors", () => {
    const { resources, unreadable } = parse(`${NS}data:\n  a: &v hello\n  b: *v\n`);
    expect(unreadable).toEqual([]);
    expect(resources[0]?.object.data).toEqual({ a: "hello", b: "hello" });
  });
});

describe("tags and complex keys (item 11)", () => {
  it.each([
    ["a: !!int x", "YAML tag !!int cannot be resolved (line 4, column 4)"],
    ["a: !!bool maybe", "YAML tag !!bool cannot be resolved (line 4, column 4)"],
    ["a: !!js/function 'function(){}'", "YAML tag !!js/function cannot be resolved (line 4, column 4)"],
    ["a: !custom x", "YAML tag !custom cannot be resolved (line 4, column 4)"],
  ])("%s is a finding", (line, message) => {
    const [f] = findings(`${NS}${line}\n`);
    expect(f?.[1]).toBe("parse:tag");
    expect(f?.[2]).toBe(`${message}: kubectl would refuse the file; remove the tag or quote the value`);
  });

  it("!!binary is not a JSON type", () => {
    expect(findings(`${NS}a: !!binary aGVsbG8=\n`)[0]?.[2]).toBe("YAML tag !!binary (line 4, column 13) is not a JSON type: kubectl would not send it as written; remove the tag");
  });

  it("!!str and !!int on a matching value are fine", () => {
    expect(parse(`${NS}data: {a: !!str 123, b: !!int 5}\n`).resources[0]?.object.data).toEqual({ a: "123", b: 5 });
  });

  it.each([
    ["? [x, y]\n: 1", "a list used as a key (line 4, column 3): Kubernetes objects only have string keys"],
    ["{x: 1}: 2", "a map used as a key (line 4, column 1): Kubernetes objects only have string keys"],
    ["data:\n  ? {a: 1}\n  : 2", "a map used as a key (line 5, column 5): Kubernetes objects only have string keys"],
  ])("complex key %j is a finding", (yaml, message) => {
    expect(findings(`${NS}${yaml}\n`)).toEqual([[0, "parse:complex-key", message]]);
  });

  it("a question mark inside a value is not a complex key", () => {
    expect(parse(`${NS}data: {q: "what? no", r: why?}\n`).resources[0]?.object.data).toEqual({ q: "what? no", r: "why?" });
  });
});

describe("JSON text (items 5, 11)", () => {
  it("finds a duplicate key, which JSON.parse drops", () => {
    expect(scanJson('{"Statement":[{"Effect":"Deny",\n "Effect":"Allow"}]}')).toEqual({
      rule: "parse:duplicate-key",
      message: 'duplicate key "Effect" (line 2, column 2): JSON.parse would keep only the last one',
    });
    expect(scanJson('{"a":"\\"b\\"","b":{"a":1},"c":["a","a"]}')).toBeUndefined();
    expect(scanJson('{"\\u0041":1,"A":2}')?.rule).toBe("parse:duplicate-key");
  });

  it("IAM JSON with a duplicate key or 5,000 levels is a finding, the others are read", () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-iam-"));
    mkdirSync(join(dir, "iam"));
    writeFileSync(join(dir, "iam", "dup.json"), '{"Version":"2012-10-17","Statement":[{"Effect":"Deny","Effect":"Allow","Action":"*","Resource":"*"}]}');
    writeFileSync(join(dir, "iam", "deep.json"), `${"[".repeat(5000)}${"]".repeat(5000)}`);
    writeFileSync(join(dir, "iam", "ok.json"), '{"Version":"2012-10-17","Statement":[]}');
    const docs = loadDocuments([dir], { cwd: dir });
    expect(docs.iam.map((d) => d.file)).toEqual(["iam/ok.json"]);
    expect(docs.unreadable.map((u) => [u.file, u.findings[0]?.rule, u.findings[0]?.message])).toEqual([
      ["iam/deep.json", "parse:too-deep", `document is nested more than ${MAX_NESTING_DEPTH} levels deep (line 1, column ${MAX_NESTING_DEPTH + 1})`],
      ["iam/dup.json", "parse:duplicate-key", 'duplicate key "Effect" (line 1, column 55): JSON.parse would keep only the last one'],
    ]);
  });

  it("a deeply nested YAML/JSON resource is parse:too-deep, not a crash", () => {
    const text = `{"apiVersion":"v1","kind":"ConfigMap","data":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const { unreadable } = parse(text);
    expect(unreadable[0]?.findings[0]?.rule).toBe("parse:too-deep");
  });
});

describe("filesystem (items 8, 9, 10)", () => {
  it("follows symbolic links to files and reports dangling ones", () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-links-"));
    const outside = mkdtempSync(join(tmpdir(), "hostile-target-"));
    writeFileSync(join(outside, "bad.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: linked}\n");
    symlinkSync(join(outside, "bad.yaml"), join(dir, "a-link.yaml"));
    symlinkSync(join(outside, "missing.yaml"), join(dir, "b-dangling.yaml"));
    symlinkSync(dir, join(dir, "c-loop"));
    const docs = loadDocuments([dir], { cwd: dir });
    expect(docs.resources.map((r) => [r.file, r.name])).toEqual([["a-link.yaml", "linked"]]);
    expect(docs.unreadable.map((u) => [u.file, u.findings[0]?.rule, u.findings[0]?.message])).toEqual([
      ["b-dangling.yaml", "parse:dangling-link", `symbolic link to ${join(outside, "missing.yaml")}, which does not exist`],
      ["c-loop", "parse:link-cycle", "symbolic link to a folder that contains it: not followed"],
    ]);
  });

  it("refuses a FIFO given as a path or found in a folder, without waiting for a writer", () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-fifo-"));
    execFileSync("mkfifo", [join(dir, "pipe.yaml")]);
    writeFileSync(join(dir, "ok.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n");
    const message = "a FIFO (named pipe), not a regular file: refused (pipe YAML through stdin with '-' instead)";
    const viaFolder = loadDocuments([dir], { cwd: dir });
    expect(viaFolder.resources.map((r) => r.name)).toEqual(["ok"]);
    expect(viaFolder.unreadable.map((u) => [u.file, u.findings[0]?.rule, u.findings[0]?.message])).toEqual([["pipe.yaml", "parse:not-a-file", message]]);
    const direct = loadDocuments([join(dir, "pipe.yaml")], { cwd: dir });
    expect(direct.unreadable.map((u) => [u.file, u.findings[0]?.message])).toEqual([["pipe.yaml", message]]);
  });

  it("stdin has the file size limit", () => {
    const docs = loadDocuments(["-"], { readStdin: () => `${NS}data: {a: ${"x".repeat(2000)}}\n`, maxFileBytes: 1000 });
    expect(docs.resources).toEqual([]);
    expect(docs.unreadable[0]?.findings[0]).toEqual({
      severity: "error",
      path: "",
      rule: "parse:too-large",
      message: "stdin is 2063 bytes, over the 1000-byte limit; split it or raise --max-file-bytes",
    });
  });

  it("real stdin stops reading past the limit", () => {
    const script = `import { loadDocuments } from ${JSON.stringify(join(import.meta.dirname, "../reader.ts"))};
      const d = loadDocuments(["-"], { maxFileBytes: 3 * 1024 * 1024 });
      console.log(JSON.stringify(d.unreadable[0].findings[0].message), process.memoryUsage().rss < 400e6);`;
    const big = join(mkdtempSync(join(tmpdir(), "hostile-stdin-")), "big");
    writeFileSync(big, Buffer.alloc(20 * 1024 * 1024, 0x61));
    const fd = openSync(big, "r");
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: [fd, "pipe", "pipe"], encoding: "utf8" });
    closeSync(fd);
    expect(out.trim()).toBe(`"stdin is over 3145728 bytes (stopped reading at ${4 * 1024 * 1024}), over the 3145728-byte limit; split it or raise --max-file-bytes" true`);
  });
});

describe("a damaged IAM index.json (found by the fuzz suite)", () => {
  it.each([
    [{ roles: [{}] }, "/roles/0/arn", "arn must be a string"],
    [{ roles: [{ arn: 5, trustPolicyFile: "t.json", inlinePolicies: [] }] }, "/roles/0/arn", "arn must be a string"],
    [{ roles: [{ arn: "arn:aws:iam::1:role/r", trustPolicyFile: "t.json" }] }, "/roles/0/inlinePolicies", "inlinePolicies must be a list"],
    [{ roles: [{ arn: "arn:aws:iam::1:role/r", trustPolicyFile: "t.json", inlinePolicies: [{}] }] }, "/roles/0/inlinePolicies/0/file", "file must be a string"],
    [{ roles: [], queue: {} }, "/queue/policyFile", "policyFile must be a string"],
  ])("%j is a finding at %s", async (index, path, message) => {
    const { lintIamDocuments } = await import("../iam.ts");
    const out = lintIamDocuments([{ file: "iam/index.json", index: 0, iamKind: "index", object: index }]);
    expect(out.get("iam/index.json")).toEqual({ status: "invalid", findings: [{ severity: "error", path, message, rule: "iam:index" }] });
  });
});

describe("nesting depth on the fast path", () => {
  it("a block-nested YAML document past what the parsers' stacks allow is parse:too-deep, with its line", () => {
    const lines = Array.from({ length: 1100 }, (_, i) => `${" ".repeat(i + 1)}k:`).join("\n");
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n${lines} v\n`;
    expect(parse(text).unreadable[0]?.findings[0]).toMatchObject({ rule: "parse:too-deep", message: expect.stringMatching(/^document is nested too deeply to read \(line \d+, column \d+\)$/) });
  });

  it("ordinary long files are not measured", async () => {
    const { mayNestDeeperThan } = await import("./json.ts");
    expect(mayNestDeeperThan(`${NS}data:\n${Array.from({ length: 500 }, (_, i) => `  k${i}: v`).join("\n")}\n`, MAX_NESTING_DEPTH)).toBe(false);
    expect(mayNestDeeperThan(`${"[".repeat(1001)}${"]".repeat(1001)}`, MAX_NESTING_DEPTH)).toBe(true);
  });
});

describe("readRegularFile", () => {
  it("gives a file's bytes exactly, whatever its size (its buffer is not zero-filled: nothing past the bytes read is returned)", async () => {
    const { readFileSync } = await import("node:fs");
    const { readRegularFile } = await import("./fs.ts");
    const dir = mkdtempSync(join(tmpdir(), "read-regular-"));
    // around Node's 8 KiB buffer pool and its half, where small buffers come from the pool
    for (const size of [0, 1, 7, 4095, 4096, 4097, 8191, 8192, 8193, 100_000]) {
      const file = join(dir, `f${size}.yaml`);
      writeFileSync(file, Buffer.from(Array.from({ length: size }, (_, i) => 97 + (i % 26))));
      const read = readRegularFile(file, 1 << 20);
      expect(Buffer.isBuffer(read) && read.equals(readFileSync(file)), `size ${size}`).toBe(true);
    }
  });
});
