// Errors for bad overlays: each problem names the file, the cluster and the field path (and, once located, the line).

export interface ConfigProblem {
  /** Dotted field path inside the overlay, e.g. `nodePools[0].limits.cpu`. */
  readonly path: string;
  readonly message: string;
  /** The same path as keys and indexes (`["nodePools", 0, "limits", "cpu"]`), for locating it in the source. */
  readonly segments?: readonly (string | number)[];
  /** What the problem points at in the source: the property's key (an unknown key) or its value (the default). */
  readonly target?: "key" | "value";
  /** How to fix it: "did you mean `maxReplicas`?", an example of a valid value. */
  readonly hint?: string;
  /** What kind of check failed, e.g. `overlay:unknown-key`, `overlay:type`, `overlay:region`. */
  readonly rule?: string;
  /** 1-based line and column in the overlay's source, once located (see locate.ts). */
  readonly line?: number;
  readonly column?: number;
}

/** A cluster overlay that cannot be used; the CLI exits 2 on it. */
export class ConfigError extends Error {
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[]) {
    super(problems.map((p) => `${file}${p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : ""}: ${p.path || "(root)"}: ${p.message}${p.hint ? ` (${p.hint})` : ""}`).join("\n"));
    this.name = "ConfigError";
    this.file = file;
    this.problems = problems;
  }
}

/** Renders a zod-style path (`["nodePools", 0, "limits"]`) as `nodePools[0].limits`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
