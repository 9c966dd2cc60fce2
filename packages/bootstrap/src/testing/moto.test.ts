// The e2e suites' moto check, without Python: fake interpreters answer as python3 with another moto, without moto,
// or not at all, and each gets the message that says what is installed and the exact command to run.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkMoto, MotoSetupError, motoPython } from "./moto.ts";

const dir = mkdtempSync(join(tmpdir(), "moto-check-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A fake `python` that prints `out` (stdout), `err` (stderr) and exits with `code`, whatever it is asked. */
function fakePython(name: string, out: string, err = "", code = 0): string {
  const file = join(dir, name);
  writeFileSync(`${file}.out`, out);
  writeFileSync(`${file}.err`, err);
  writeFileSync(file, `#!/bin/sh\ncat '${file}.out'\ncat '${file}.err' >&2\nexit ${code}\n`);
  chmodSync(file, 0o755);
  return file;
}
const HOW = 'install it: python3 -m pip install "moto[server]==5.2.5" (or into a venv, then EKS_GITOPS_MOTO_PYTHON=<venv>/bin/python)';

describe("checkMoto", () => {
  it("accepts moto 5.2.5 and says where its package is", () => {
    const python = fakePython("ok", "5.2.5\n/venv/lib/python3.11/site-packages/moto\n");
    expect(checkMoto(python)).toEqual({ python, version: "5.2.5", packageDir: "/venv/lib/python3.11/site-packages/moto" });
  });

  it("refuses another release (this machine's system moto is 5.2.1), naming both versions and the command", () => {
    const python = fakePython("old", "5.2.1\n/usr/lib/python3/site-packages/moto\n");
    expect(() => checkMoto(python)).toThrow(
      new MotoSetupError(`${python} has moto 5.2.1, the AWS emulator tests need moto 5.2.5 (another release serves other instance-type data); ${HOW}`),
    );
  });

  it("refuses a Python without moto, with its last error line", () => {
    const python = fakePython("none", "", "Traceback (most recent call last):\nModuleNotFoundError: No module named 'moto'\n", 1);
    expect(() => checkMoto(python)).toThrow(new MotoSetupError(`moto server 5.2.5 is not installed for ${python} (ModuleNotFoundError: No module named 'moto'); ${HOW}`));
  });

  it("says when the interpreter does not exist", () => {
    const python = join(dir, "missing-python");
    expect(() => checkMoto(python)).toThrow(/^.*missing-python not found \(spawnSync .*missing-python ENOENT\); the AWS emulator tests need Python 3 with moto 5\.2\.5: install it: /);
  });

  it("runs $EKS_GITOPS_MOTO_PYTHON when set, else python3", () => {
    expect(motoPython({ EKS_GITOPS_MOTO_PYTHON: "/venv/bin/python" })).toBe("/venv/bin/python");
    expect(motoPython({ EKS_GITOPS_MOTO_PYTHON: "" })).toBe("python3");
    expect(motoPython({})).toBe("python3");
  });
});
