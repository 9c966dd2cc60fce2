// Why an overlay could not be imported, said so a person can act on it; and a guard against overlays that end the process.

/** Overlays loaded by this process: absolute path -> path as shown. */
const loaded = new Map<string, string>();
let guarding = false;

/** Thrown in place of process.exit() while an overlay is imported. */
class OverlayExitError extends Error {
  constructor(readonly code: unknown) {
    super(`process.exit(${code === undefined ? "" : String(code)})`);
    this.name = "OverlayExitError";
  }
}

/**
 * Runs `load` (the import of overlay `file`) with process.exit replaced by a throw, so an overlay that
 * calls it at the top level (or before its top-level await settles) fails to load instead of ending the
 * command with the exit code of its choosing. Later calls are {@link guardLaterExits}' part.
 */
export async function withoutProcessExit<T>(file: string, load: () => Promise<T>): Promise<T> {
  const exit = process.exit;
  let called: OverlayExitError | undefined;
  process.exit = ((code?: unknown) => {
    // from another overlay, loaded before (a timer it set): the guard of guardLaterExits names it
    const stack = new Error().stack ?? "";
    if ([...loaded].some(([abs, shown]) => abs !== file && shown !== loaded.get(file) && stack.includes(abs))) return exit.call(process, code as number);
    called = new OverlayExitError(code);
    throw called;
  }) as typeof process.exit;
  try {
    const result = await load();
    if (called) throw called; // the overlay caught the throw: it still tried to end the process
    return result;
  } catch (err) {
    throw called ?? err;
  } finally {
    process.exit = exit;
  }
}

/**
 * After an overlay is loaded, a process.exit() whose stack passes through it (a timer it set, a
 * getter the renderer calls) ends the command with 2 and a message naming it, never with the code it
 * asked for. Calls from anywhere else go through unchanged. Installed once, for the process's life.
 */
export function guardLaterExits(file: string, shown: string): void {
  loaded.set(file, shown);
  if (guarding) return;
  guarding = true;
  const exit = process.exit;
  process.exit = ((code?: unknown) => {
    const stack = new Error().stack ?? "";
    const from = [...loaded].find(([abs]) => stack.includes(abs));
    if (!from) return exit.call(process, code as number);
    process.stderr.write(`${from[1]}: called process.exit(${code === undefined ? "" : String(code)}) after it was loaded; an overlay must not end the process: remove the call\n`);
    return exit.call(process, 2);
  }) as typeof process.exit;
}

/** esbuild's `file:line:column: ERROR: reason` lines (tsx reports TypeScript syntax errors through it). */
const ESBUILD_ERROR = /^.*?:(\d+):(\d+): ERROR: (.*)$/;

/** One line saying why importing an overlay failed. */
export function describeLoadError(err: unknown): string {
  if (err instanceof OverlayExitError) return `it called ${err.message} while being imported; an overlay must not end the process: remove the call`;
  if (!(err instanceof Error)) {
    const shown = typeof err === "string" ? JSON.stringify(err) : String(err);
    const what = err === null ? "null" : typeof err === "object" ? "an object" : `a ${typeof err}`;
    return `it threw ${shown} (${what}, not an Error) while being imported; an overlay only exports \`defineCluster({...})\``;
  }
  const lines = String(err.message ?? "").split("\n");
  // "Transform failed with N error(s):" followed by one line per error
  const syntax = lines.map((l) => ESBUILD_ERROR.exec(l)).filter((m): m is RegExpExecArray => m !== null);
  if (syntax.length > 0) return syntax.map(([, line, column, reason]) => `syntax error at line ${line}, column ${Number(column) + 1}: ${reason}`).join("; ");
  return lines[0] || err.name;
}
