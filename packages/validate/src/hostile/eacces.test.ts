// Unreadable files and folders (issue 14 item 4). Tests run as root, which ignores mode 000: node:fs is wrapped so
// that paths containing "locked" fail with EACCES exactly where a non-root user's run would.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { loadDocuments } from "../reader.ts";

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const denied = (syscall: string, path: unknown) => Object.assign(new Error(`EACCES: permission denied, ${syscall} '${String(path)}'`), { code: "EACCES", errno: -13, syscall, path });
  const guard =
    <A extends unknown[], R>(syscall: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      if (String(args[0]).includes("locked")) throw denied(syscall, args[0]);
      return fn(...args);
    };
  return { ...fs, default: fs, openSync: guard("open", fs.openSync), readdirSync: guard("scandir", fs.readdirSync) };
});

describe("unreadable paths", () => {
  it("one error per unreadable file or folder; the rest is read", () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-eacces-"));
    mkdirSync(join(dir, "locked-dir"));
    writeFileSync(join(dir, "locked-dir", "x.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n");
    writeFileSync(join(dir, "locked.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n");
    writeFileSync(join(dir, "ok.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n");
    const docs = loadDocuments([dir], { cwd: dir });
    expect(docs.resources.map((r) => r.name)).toEqual(["ok"]);
    expect(docs.unreadable.map((u) => [u.file, u.findings])).toEqual([
      ["locked-dir", [{ severity: "error", path: "", rule: "parse:unreadable", message: "cannot read folder: permission denied (EACCES)" }]],
      ["locked.yaml", [{ severity: "error", path: "", rule: "parse:unreadable", message: "cannot read file: permission denied (EACCES)" }]],
    ]);
  });

  it("an unreadable folder given as the path is one finding, not a crash", () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-eacces-"));
    mkdirSync(join(dir, "locked"));
    const docs = loadDocuments([join(dir, "locked")], { cwd: dir });
    expect(docs.unreadable.map((u) => [u.file, u.findings[0]?.message])).toEqual([["locked", "cannot read folder: permission denied (EACCES)"]]);
  });
});
