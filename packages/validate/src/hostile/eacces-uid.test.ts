// Unreadable files and folders for real (issue 14 item 4): root ignores mode 000, so the reader runs in a child
// process as `nobody` (setpriv); skipped where that is not possible. eacces.test.ts covers the same with an
// injected error everywhere.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const NOBODY = 65534;
const dropTo = [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];
const reader = join(import.meta.dirname, "../reader.ts");
// `nobody` must also be able to read this checkout (a clone inside a mode-700 folder is not): else skipped
const canDrop =
  process.getuid?.() === 0 && spawnSync("setpriv", ["--version"]).status === 0 && spawnSync("setpriv", [...dropTo, "test", "-r", reader]).status === 0;

describe.runIf(canDrop)("unreadable paths, as a user without access", () => {
  it("one error per mode-000 file or folder; the rest is read", () => {
    const dir = mkdtempSync(join(tmpdir(), "hostile-uid-"));
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, "locked-dir"));
    writeFileSync(join(dir, "locked-dir", "a.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n");
    chmodSync(join(dir, "locked-dir"), 0);
    writeFileSync(join(dir, "locked.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n", { mode: 0 });
    writeFileSync(join(dir, "ok.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n", { mode: 0o644 });
    const script = `import { loadDocuments } from ${JSON.stringify(reader)};
      const d = loadDocuments([process.argv[1]], { cwd: process.argv[1] });
      console.log(JSON.stringify({ names: d.resources.map((r) => r.name), unreadable: d.unreadable.map((u) => [u.file, u.findings]) }));`;
    const out = execFileSync(
      "setpriv",
      [...dropTo, process.execPath, "--import", "tsx", "--input-type=module", "-e", script, dir],
      { encoding: "utf8", env: { ...process.env, HOME: tmpdir() } },
    );
    expect(JSON.parse(out)).toEqual({
      names: ["ok"],
      unreadable: [
        ["locked-dir", [{ severity: "error", path: "", rule: "parse:unreadable", message: "cannot read folder: permission denied (EACCES)" }]],
        ["locked.yaml", [{ severity: "error", path: "", rule: "parse:unreadable", message: "cannot read file: permission denied (EACCES)" }]],
      ],
    });
  });
});
