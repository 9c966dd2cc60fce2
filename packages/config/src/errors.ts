// Errors for bad overlays: each problem names the file, the cluster and the field path.

export interface ConfigProblem {
  /** Dotted field path inside the overlay, e.g. `nodePools[0].limits.cpu`. */
  readonly path: string;
  readonly message: string;
}

/** A cluster overlay that cannot be used; the CLI exits 2 on it. */
export class ConfigError extends Error {
  readonly file: string;
  readonly problems: readonly ConfigProblem[];

  constructor(file: string, problems: readonly ConfigProblem[]) {
    super(problems.map((p) => `${file}: ${p.path || "(root)"}: ${p.message}`).join("\n"));
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
