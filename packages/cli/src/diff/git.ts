// Reading the rendered output of every overlay at a git ref or in the working tree, as repo path -> content.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { CLUSTERS_DIR, RENDERED_DIR } from "@eks-gitops/config";
import { UsageError } from "../exit-codes.ts";
import { readTree } from "../tree.ts";

/** `clusters/<name>/rendered/...`: the only files the diff looks at. */
const RENDERED_PATH = new RegExp(`^${CLUSTERS_DIR}/[^/]+/${RENDERED_DIR}/`);

function git(root: string, args: readonly string[], input?: Buffer): Buffer {
  try {
    return execFileSync("git", [...args], { cwd: root, input, maxBuffer: 1 << 30, stdio: ["pipe", "pipe", "pipe"] });
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? "").trim();
    throw new UsageError(`git ${args.join(" ")} failed in ${root}: ${stderr || (err as Error).message}`);
  }
}

/** The full commit id of a ref; a usage error naming the ref if git does not know it. */
export function resolveCommit(root: string, ref: string): string {
  return git(root, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`]).toString().trim();
}

/** How to get the history a shallow clone lacks. */
const UNSHALLOW = "fetch the full history (`git fetch --unshallow origin`, or `fetch-depth: 0` in actions/checkout)";

function isShallow(root: string): boolean {
  try {
    return git(root, ["rev-parse", "--is-shallow-repository"]).toString().trim() === "true";
  } catch {
    return false;
  }
}

/** A usage error unless `root` is inside a git work tree (diff reads revisions). */
export function checkRepository(root: string): void {
  if (!existsSync(root)) throw new UsageError(`no such folder: ${root}`);
  try {
    execFileSync("git", ["rev-parse", "--git-dir"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new UsageError("git is not installed (or not on PATH); diff reads revisions with it");
    const stderr = String((err as { stderr?: Buffer }).stderr ?? "").trim();
    if (/not a git repository/i.test(stderr)) {
      throw new UsageError(`${root} is not a git repository: diff compares the committed rendered output of two revisions; run it inside a clone of the repository`);
    }
    throw new UsageError(`git rev-parse --git-dir failed in ${root}: ${stderr || (err as Error).message}`);
  }
}

/** The merge base of HEAD with the first of `candidates` that exists (default base of a pull request diff). */
export function defaultBase(root: string, candidates: readonly string[] = ["main", "origin/main"]): string {
  for (const c of candidates) {
    try {
      resolveCommit(root, c);
    } catch {
      continue;
    }
    try {
      return git(root, ["merge-base", "HEAD", c]).toString().trim();
    } catch (err) {
      if (isShallow(root)) {
        throw new UsageError(`no merge base of HEAD and ${c} in ${root}: it is a shallow clone, so the history that joins them is missing; ${UNSHALLOW} or pass --base REF`);
      }
      throw err;
    }
  }
  const fix = isShallow(root) ? `it is a shallow clone: ${UNSHALLOW}, or pass --base REF` : "pass --base REF";
  throw new UsageError(`no branch ${candidates.join(" or ")} to take the merge base with; ${fix}`);
}

/** Every rendered file at a commit. One `git cat-file --batch` call, however many files. */
export function readRenderedAtRef(root: string, ref: string): Map<string, string> {
  const commit = resolveCommit(root, ref);
  const paths = git(root, ["ls-tree", "-r", "-z", "--name-only", commit, "--", `${CLUSTERS_DIR}/`])
    .toString()
    .split("\0")
    .filter((p) => RENDERED_PATH.test(p));
  const out = new Map<string, string>();
  if (paths.length === 0) return out;
  const batch = git(root, ["cat-file", "--batch"], Buffer.from(paths.map((p) => `${commit}:${p}\n`).join("")));
  let at = 0;
  for (const path of paths) {
    const eol = batch.indexOf(10, at);
    const header = batch.subarray(at, eol).toString();
    const size = Number(header.split(" ")[2]);
    if (!/ blob \d+$/.test(header)) throw new Error(`git cat-file: unexpected answer '${header}' for ${commit}:${path}`);
    out.set(path, batch.subarray(eol + 1, eol + 1 + size).toString("utf8"));
    at = eol + 1 + size + 1;
  }
  return out;
}

/** Every rendered file in the working tree (committed or not). */
export function readRenderedWorkingTree(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const clusters = join(root, CLUSTERS_DIR);
  if (!existsSync(clusters)) return out;
  for (const d of readdirSync(clusters, { withFileTypes: true })) {
    if (!d.isDirectory()) continue;
    const prefix = `${CLUSTERS_DIR}/${d.name}/${RENDERED_DIR}/`;
    for (const [path, content] of readTree(join(clusters, d.name, RENDERED_DIR))) out.set(prefix + path, content);
  }
  return out;
}
