// One colour rule for every command: a terminal gets colour, NO_COLOR turns it off, FORCE_COLOR turns it on.
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { colorEnabled } from "./color.ts";

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe("colorEnabled", () => {
  it.each([
    ["a terminal", tty, {}, true],
    ["a pipe or file", pipe, {}, false],
    ["a dumb terminal", tty, { TERM: "dumb" }, false],
    ["NO_COLOR on a terminal", tty, { NO_COLOR: "1" }, false],
    ["an empty NO_COLOR (no-color.org: ignored)", tty, { NO_COLOR: "" }, true],
    ["FORCE_COLOR on a pipe", pipe, { FORCE_COLOR: "1" }, true],
    ["an empty FORCE_COLOR on a pipe", pipe, { FORCE_COLOR: "" }, true],
    ["FORCE_COLOR=0 on a terminal", tty, { FORCE_COLOR: "0" }, false],
    ["FORCE_COLOR=false on a terminal", tty, { FORCE_COLOR: "false" }, false],
    ["FORCE_COLOR over NO_COLOR (as in Node)", pipe, { FORCE_COLOR: "1", NO_COLOR: "1" }, true],
    ["CI alone (it is not a terminal)", pipe, { CI: "true" }, false],
  ] as const)("%s", (_, stream, env, expected) => {
    expect(colorEnabled(stream, env)).toBe(expected);
  });
});

describe("the commands honour NO_COLOR and FORCE_COLOR (run as a process, stdout a pipe)", () => {
  const REPO = resolve(import.meta.dirname, "../../..");
  const INVALID = "packages/validate/fixtures/karpenter/nodepool/invalid-static-weight.yaml";
  const run = (args: string[], env: Record<string, string>) => {
    const base = { ...process.env };
    delete base.FORCE_COLOR;
    delete base.NO_COLOR;
    const r = spawnSync(process.execPath, [join(REPO, "packages/cli/bin/eks-gitops.js"), ...args], { cwd: REPO, encoding: "utf8", env: { ...base, ...env } });
    return { status: r.status, stdout: r.stdout };
  };

  it("validate: plain by default on a pipe, red 'invalid' with FORCE_COLOR, plain again with FORCE_COLOR=0", () => {
    expect(run(["validate", INVALID], {})).toMatchObject({ status: 1, stdout: expect.not.stringContaining("\x1b[") });
    expect(run(["validate", INVALID], { FORCE_COLOR: "1" }).stdout).toContain("NodePool/static-weight \x1b[31minvalid\x1b[39m /spec");
    expect(run(["validate", INVALID], { FORCE_COLOR: "0" }).stdout).not.toContain("\x1b[");
  }, 60_000);
});
