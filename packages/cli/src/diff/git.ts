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

/** The merge base of HEAD with the first of `candidates` that exists (default base of a pull request diff). */
export function defaultBase(root: string, candidates: readonly string[] = ["main", "origin/main"]): string {
  for (const c of candidates) {
    try {
      resolveCommit(root, c);
    } catch {
      continue;
    }
    return git(root, ["merge-base", "HEAD", c]).toString().trim();
  }
  throw new UsageError(`no branch ${candidates.join(" or ")} to take the merge base with; pass --base REF`);
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
