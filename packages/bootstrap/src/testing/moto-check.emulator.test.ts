// The e2e suites' moto check, with no process started: answers as python3 gives them (another moto, no moto, no
// interpreter at all) get the message that says what is installed and the exact command to run. It runs with `pnpm e2e`,
// beside the suites that need moto: `pnpm test` needs Node and pnpm only, and keeps out of every test about a peer.
import { describe, expect, it } from "vitest";
import { MotoSetupError, motoPython, motoVerdict } from "./moto-check.ts";

/** What spawnSync returns for an interpreter that ran: its stdout, stderr and exit status. */
const ran = (stdout: string, stderr = "", status = 0) => ({ status, stdout, stderr });
const HOW = 'install it: python3 -m pip install "moto[server]==5.2.5" (or into a venv, then EKS_GITOPS_MOTO_PYTHON=<venv>/bin/python)';

describe("motoVerdict", () => {
  it("accepts moto 5.2.5 and says where its package is", () => {
    expect(motoVerdict("/venv/bin/python", ran("5.2.5\n/venv/lib/python3.11/site-packages/moto\n"))).toEqual({
      python: "/venv/bin/python",
      version: "5.2.5",
      packageDir: "/venv/lib/python3.11/site-packages/moto",
    });
  });

  it("refuses another release (this machine's system moto is 5.2.1), naming both versions and the command", () => {
    expect(() => motoVerdict("python3", ran("5.2.1\n/usr/lib/python3/site-packages/moto\n"))).toThrow(
      new MotoSetupError(`python3 has moto 5.2.1, the AWS emulator tests need moto 5.2.5 (another release serves other instance-type data); ${HOW}`),
    );
  });

  it("refuses a Python without moto, with its last error line", () => {
    const answer = ran("", "Traceback (most recent call last):\nModuleNotFoundError: No module named 'moto'\n", 1);
    expect(() => motoVerdict("python3", answer)).toThrow(new MotoSetupError(`moto server 5.2.5 is not installed for python3 (ModuleNotFoundError: No module named 'moto'); ${HOW}`));
  });

  it("says when the interpreter does not exist", () => {
    // spawnSync's error for a missing file
    const answer = { ...ran(""), status: null, error: new Error("spawnSync /opt/missing-python ENOENT") };
    expect(() => motoVerdict("/opt/missing-python", answer)).toThrow(
      /^.*missing-python not found \(spawnSync .*missing-python ENOENT\); the AWS emulator tests need Python 3 with moto 5\.2\.5: install it: /,
    );
  });

  it("runs $EKS_GITOPS_MOTO_PYTHON when set, else python3", () => {
    expect(motoPython({ EKS_GITOPS_MOTO_PYTHON: "/venv/bin/python" })).toBe("/venv/bin/python");
    expect(motoPython({ EKS_GITOPS_MOTO_PYTHON: "" })).toBe("python3");
    expect(motoPython({})).toBe("python3");
  });
});
