// The folder the user typed the command in. pnpm runs a package's script in that package's folder and
// puts the folder the user was in into INIT_CWD; relative paths (and the search for the repository root)
// must start from there, so `cd clusters/aws-cn && pnpm validate rendered` means clusters/aws-cn/rendered.
"use strict";
const { realpathSync, statSync } = require("node:fs");
const { dirname } = require("node:path");

const real = (path) => {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
};

/**
 * The folder to run in, when it differs from `cwd`: INIT_CWD, but only for a process that pnpm (or npm)
 * started as a script in `cwd` (npm_package_json names the package.json beside it). Every process a
 * script starts inherits INIT_CWD: a test that spawns this CLI in a folder of its own, from inside
 * `pnpm test`, must not be moved to where `pnpm test` was typed.
 */
function invocationDir(env = process.env, cwd = process.cwd()) {
  const init = env.INIT_CWD;
  const packageJson = env.npm_package_json;
  if (!init || !packageJson) return undefined;
  const here = real(cwd);
  if (here === undefined || real(dirname(packageJson)) !== here) return undefined;
  const target = real(init);
  if (target === undefined || target === here || !statSync(target).isDirectory()) return undefined;
  return target;
}

exports.invocationDir = invocationDir;
