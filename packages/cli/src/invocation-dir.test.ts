// The launcher works from the folder the user typed the command in (INIT_CWD), but only when pnpm started
// it as a script: a process that merely inherited INIT_CWD stays where it was started.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript (it runs before any TypeScript loader), no declarations
import { invocationDir } from "../bin/invocation-dir.js";

const where = invocationDir as (env: Record<string, string | undefined>, cwd: string) => string | undefined;
const REPO = resolve(import.meta.dirname, "../../..");
const other = mkdtempSync(join(tmpdir(), "invocation-dir-"));
afterAll(() => rmSync(other, { recursive: true, force: true }));

describe("invocationDir", () => {
  it("is INIT_CWD for a script pnpm runs in the folder of its package.json", () => {
    const env = { INIT_CWD: join(REPO, "clusters/aws-cn"), npm_package_json: join(REPO, "package.json") };
    expect(where(env, REPO)).toBe(join(REPO, "clusters/aws-cn"));
  });

  it("stays put when INIT_CWD is where it already runs, or is not set", () => {
    expect(where({ INIT_CWD: REPO, npm_package_json: join(REPO, "package.json") }, REPO)).toBeUndefined();
    expect(where({ npm_package_json: join(REPO, "package.json") }, REPO)).toBeUndefined();
  });

  it("ignores an inherited INIT_CWD: a process started in another folder than its script's package", () => {
    // e.g. a test spawning the CLI in a folder of its own, from inside `pnpm test` of packages/cli
    const env = { INIT_CWD: REPO, npm_package_json: join(REPO, "packages/cli/package.json") };
    expect(where(env, other)).toBeUndefined();
    expect(where({ INIT_CWD: REPO }, other)).toBeUndefined();
  });

  it("ignores an INIT_CWD that is not a folder", () => {
    writeFileSync(join(other, "file"), "");
    const env = { npm_package_json: join(REPO, "package.json") };
    expect(where({ ...env, INIT_CWD: join(other, "file") }, REPO)).toBeUndefined();
    expect(where({ ...env, INIT_CWD: join(other, "missing") }, REPO)).toBeUndefined();
  });
});
