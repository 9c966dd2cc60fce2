// A repository's validate defaults: `.eks-gitops.yaml` (key `validate`) or the `validate` key of the root package.json.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { closest } from "./edit-distance.ts";
import type { Acknowledgement, LevelOptions } from "./levels.ts";
import { CHECKS, type Check, parseChecks, type Selection, SelectionError } from "./selection.ts";
import { yamlLib } from "./yaml-lib.ts";

export { closest, editDistance } from "./edit-distance.ts";

export const CONFIG_FILE = ".eks-gitops.yaml";

/** The keys a `validate` block may have; each mirrors a flag of `eks-gitops validate`. */
const KEYS = {
  skip: "--skip",
  reject: "--reject",
  ignoreMissingSchemas: "--ignore-missing-schemas",
  ignoreFilenamePattern: "--ignore-filename-pattern",
  checks: "--checks",
  strict: "--strict",
  acknowledge: "(no flag: findings accepted with a reason)",
} as const;
type Key = keyof typeof KEYS;

export interface ValidateDefaults {
  /** The file the defaults came from (for messages). */
  readonly file: string;
  readonly selection: Selection;
  /** `strict` and `acknowledge`: how findings count (levels.ts). */
  readonly levels: LevelOptions;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function stringList(file: string, key: string, v: unknown): string[] {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
  throw new SelectionError(`${file}: validate.${key} must be a string or a list of strings`);
}

const ACK_KEYS = ["rule", "reason", "file", "path"] as const;

/** `acknowledge:` — a list of {rule, reason, file?, path?}; a reason is required (an acknowledgement says why). */
function acknowledgements(file: string, value: unknown): Acknowledgement[] {
  if (!Array.isArray(value)) throw new SelectionError(`${file}: validate.acknowledge must be a list of {rule, reason, file, path}`);
  return value.map((entry, i) => {
    const at = `${file}: validate.acknowledge[${i}]`;
    if (!isPlainObject(entry)) throw new SelectionError(`${at} must be a mapping with rule and reason (and optionally file, path)`);
    for (const key of Object.keys(entry)) {
      if (!(ACK_KEYS as readonly string[]).includes(key)) {
        const hint = closest(key, ACK_KEYS);
        throw new SelectionError(`${at}: unknown key ${key}${hint ? ` (did you mean ${hint}?)` : ""}; known keys: ${ACK_KEYS.join(", ")}`);
      }
      if (typeof entry[key] !== "string" || (entry[key] as string).trim() === "") throw new SelectionError(`${at}.${key} must be a non-empty string`);
    }
    if (entry.rule === undefined) throw new SelectionError(`${at}: rule is required (the finding's rule, e.g. iam:RESOURCE_STAR_SCOPABLE)`);
    if (entry.reason === undefined) throw new SelectionError(`${at}: reason is required (why the finding is accepted; it is shown with the finding)`);
    const path = entry.path as string | undefined;
    if (path !== undefined && !path.startsWith("/")) throw new SelectionError(`${at}.path must be a JSON Pointer starting with / (e.g. /Statement/0/Resource)`);
    return { rule: entry.rule as string, reason: entry.reason as string, ...(entry.file !== undefined ? { file: entry.file as string } : {}), ...(path !== undefined ? { path } : {}) };
  });
}

/** `strict` and `acknowledge` of a `validate` block (the rest is the Selection). */
export function levelsFromBlock(file: string, block: unknown): LevelOptions {
  if (!isPlainObject(block)) return {};
  if (block.strict !== undefined && typeof block.strict !== "boolean") throw new SelectionError(`${file}: validate.strict must be true or false`);
  return {
    ...(block.strict !== undefined ? { strict: block.strict as boolean } : {}),
    ...(block.acknowledge !== undefined ? { acknowledge: acknowledgements(file, block.acknowledge) } : {}),
  };
}

/** Checks a `validate` block and turns it into a Selection; unknown keys and wrong types are SelectionErrors naming the file. */
export function selectionFromBlock(file: string, block: unknown): Selection {
  if (block === undefined || block === null) return {};
  if (!isPlainObject(block)) throw new SelectionError(`${file}: validate must be a mapping of ${Object.keys(KEYS).join(", ")}`);
  const selection: { -readonly [K in keyof Selection]: Selection[K] } = {};
  for (const [key, value] of Object.entries(block)) {
    if (!(key in KEYS)) {
      const hint = closest(key, Object.keys(KEYS));
      throw new SelectionError(`${file}: unknown key validate.${key}${hint ? ` (did you mean validate.${hint}?)` : ""}; known keys: ${Object.keys(KEYS).join(", ")}`);
    }
    switch (key as Key) {
      case "skip":
        selection.skip = stringList(file, key, value);
        break;
      case "reject":
        selection.reject = stringList(file, key, value);
        break;
      case "ignoreFilenamePattern":
        selection.ignoreFilenamePatterns = stringList(file, key, value);
        break;
      case "ignoreMissingSchemas":
        if (typeof value !== "boolean") throw new SelectionError(`${file}: validate.ignoreMissingSchemas must be true or false`);
        selection.ignoreMissingSchemas = value;
        break;
      case "checks":
        selection.checks = parseChecks(stringList(file, key, value), `${file}: validate.checks`) as Check[];
        break;
      case "strict":
      case "acknowledge":
        break; // levelsFromBlock
    }
  }
  return selection;
}

/**
 * The repository's defaults for `validate`, or undefined when it has none. `.eks-gitops.yaml` may only hold
 * the `validate` key (other tools' keys would be silently ignored typos otherwise); defaults in both files
 * are an error, so there is one place to look.
 */
export function loadValidateDefaults(root: string): ValidateDefaults | undefined {
  const yamlFile = join(root, CONFIG_FILE);
  const pkgFile = join(root, "package.json");
  let fromYaml: ValidateDefaults | undefined;
  if (existsSync(yamlFile)) {
    let doc: unknown;
    try {
      doc = yamlLib().parse(readFileSync(yamlFile, "utf8"), { uniqueKeys: true, maxAliasCount: 100 });
    } catch (err) {
      throw new SelectionError(`${yamlFile}: not valid YAML: ${(err as Error).message.split("\n")[0]}`);
    }
    if (doc !== null && doc !== undefined) {
      if (!isPlainObject(doc)) throw new SelectionError(`${yamlFile}: must be a mapping with a validate key`);
      for (const key of Object.keys(doc)) {
        if (key !== "validate") throw new SelectionError(`${yamlFile}: unknown key ${key}${closest(key, ["validate"]) ? " (did you mean validate?)" : ""}; the file holds a validate mapping`);
      }
      fromYaml = { file: yamlFile, selection: selectionFromBlock(yamlFile, doc.validate), levels: levelsFromBlock(yamlFile, doc.validate) };
    }
  }
  let fromPkg: ValidateDefaults | undefined;
  if (existsSync(pkgFile)) {
    let pkg: unknown;
    try {
      pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
    } catch {
      pkg = undefined; // not ours to judge; other tools report a broken package.json
    }
    if (isPlainObject(pkg) && "validate" in pkg) fromPkg = { file: pkgFile, selection: selectionFromBlock(pkgFile, pkg.validate), levels: levelsFromBlock(pkgFile, pkg.validate) };
  }
  if (fromYaml && fromPkg) throw new SelectionError(`validate defaults are in both ${fromYaml.file} and ${fromPkg.file} (key validate); keep one`);
  return fromYaml ?? fromPkg;
}

/** Flags over file defaults: each option given on the command line replaces the file's value. */
export function mergeSelection(defaults: Selection | undefined, flags: Selection): Selection {
  return {
    skip: flags.skip ?? defaults?.skip,
    reject: flags.reject ?? defaults?.reject,
    ignoreMissingSchemas: flags.ignoreMissingSchemas ?? defaults?.ignoreMissingSchemas,
    ignoreFilenamePatterns: flags.ignoreFilenamePatterns ?? defaults?.ignoreFilenamePatterns,
    checks: flags.checks ?? defaults?.checks ?? [...CHECKS],
  };
}
