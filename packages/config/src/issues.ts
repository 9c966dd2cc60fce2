// zod's issues said as a person fixing an overlay needs them: what is wrong, what is expected, an example,
// and for a misspelt key or value the nearest allowed one ("did you mean `maxReplicas`?").
import type { z } from "zod";
import type { ConfigProblem } from "./errors.ts";
import { formatPath } from "./errors.ts";
import { closest } from "./suggest.ts";

type Issue = z.core.$ZodIssue;
type Segment = string | number;
type AnySchema = z.core.$ZodType;

/** Example values by field name, shown with a wrong type or a missing required field. */
const EXAMPLES: Record<string, string> = {
  account: '"123456789012"',
  alias: '"al2023@latest"',
  amiSelectorTerms: '[{ alias: "al2023@latest" }]',
  argocd: '{ repoURL: "https://github.com/acme/platform.git" }',
  containerPort: "8080",
  count: "3",
  cpu: '"500m"',
  consolidateAfter: '"1m"',
  deviceName: '"/dev/xvda"',
  effect: '"NoSchedule"',
  expireAfter: '"720h"',
  image: '"public.ecr.aws/nginx/nginx:1.31-alpine-slim"',
  instanceType: '"t3.2xlarge"',
  key: '"karpenter.sh/capacity-type"',
  karpenter: '{ version: "1.14.1" }',
  kubernetesVersion: '"1.36"',
  labels: '{ "app.kubernetes.io/name": "web" }',
  maxPods: "110",
  maxReplicas: "12",
  memory: '"1Gi"',
  minReplicas: "3",
  minValues: "2",
  name: '"default"',
  namespace: '"apps"',
  nodeClass: '"default"',
  nodeClasses: '[{ name: "default", amiSelectorTerms: [{ alias: "al2023@latest" }] }]',
  nodePools: '[{ name: "default", nodeClass: "default", requirements: [] }]',
  oidcIssuer: '"https://oidc.eks.eu-west-1.amazonaws.com/id/0123456789ABCDEF"',
  operator: '"In"',
  port: "80",
  region: '"eu-west-1"',
  replicas: "3",
  repoURL: '"https://github.com/acme/platform.git"',
  requirements: '[{ key: "kubernetes.io/arch", operator: "In", values: ["amd64"] }]',
  targetCpuUtilizationPercent: "70",
  targetPort: "8080",
  terminationGracePeriod: '"48h"',
  values: '["spot"]',
  version: '"1.14.1"',
  volumeSize: '"100Gi"',
  weight: "10",
};

const TYPE_EXAMPLES: Record<string, string> = { number: "1", string: '"..."', boolean: "true", array: "[...]", object: "{ ... }", record: "{ ... }" };
const A: Record<string, string> = { number: "a number", string: "a string", boolean: "a boolean", array: "a list", object: "an object", record: "an object", undefined: "nothing", bigint: "a bigint", int: "a whole number" };

/** The value at `path` inside `input`, or undefined. */
function valueAt(input: unknown, path: readonly Segment[]): unknown {
  let v = input;
  for (const s of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<Segment, unknown>)[s];
  }
  return v;
}

/** How a value is shown in a message: its JSON (shortened), or its kind. */
export function show(v: unknown): string {
  if (v === undefined) return "nothing";
  if (typeof v === "function") return "a function";
  const json = typeof v === "bigint" ? `${v}n` : JSON.stringify(v);
  if (json === undefined) return String(v);
  return json.length > 60 ? `${json.slice(0, 57)}...` : json;
}

const kindOf = (v: unknown) => (Array.isArray(v) ? "array" : v === null ? "null" : typeof v);

/** The last field name of a path (`workloads[0].autoscaling.maxReplicas` -> `maxReplicas`). */
const fieldName = (path: readonly Segment[]) => [...path].reverse().find((s): s is string => typeof s === "string");

function example(path: readonly Segment[], expected: string): string | undefined {
  const name = fieldName(path);
  const value = (name && EXAMPLES[name]) ?? TYPE_EXAMPLES[expected];
  if (value === undefined) return undefined;
  return typeof path[path.length - 1] === "number" ? `e.g. ${value}` : `e.g. \`${name}: ${value}\``;
}

/** The schema's nodes along `path`, through optional/readonly/pipe wrappers; a union yields each option. */
function schemasAt(schema: AnySchema, path: readonly Segment[]): AnySchema[] {
  let current = [schema];
  for (const seg of [undefined, ...path]) {
    const next: AnySchema[] = [];
    const unwrap = (s: AnySchema): void => {
      const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
      if (def.type === "optional" || def.type === "readonly" || def.type === "nullable" || def.type === "default") unwrap(def.innerType as AnySchema);
      else if (def.type === "pipe") unwrap(def.in as AnySchema);
      else if (def.type === "union") for (const o of def.options as AnySchema[]) unwrap(o);
      else next.push(s);
    };
    for (const s of current) {
      if (seg === undefined) unwrap(s);
      else {
        const def = s._zod.def as unknown as Record<string, unknown> & { type: string };
        if (def.type === "object" && typeof seg === "string") {
          const child = (def.shape as Record<string, AnySchema>)[seg];
          if (child) unwrap(child);
        } else if (def.type === "array" && typeof seg === "number") unwrap(def.element as AnySchema);
        else if (def.type === "record") unwrap(def.valueType as AnySchema);
      }
    }
    current = next;
  }
  return current;
}

/** The keys an object at `path` may have (the union of every option's, for a union of objects). */
export function allowedKeys(schema: AnySchema, path: readonly Segment[]): string[] {
  const keys = new Set<string>();
  for (const s of schemasAt(schema, path)) {
    const def = s._zod.def as unknown as { type: string; shape?: Record<string, unknown> };
    if (def.type === "object" && def.shape) for (const k of Object.keys(def.shape)) keys.add(k);
  }
  return [...keys];
}

/** Keys a strict object at `path` requires. */
function requiredKeys(schema: AnySchema, path: readonly Segment[]): Set<string> {
  const out = new Set<string>();
  for (const s of schemasAt(schema, path)) {
    const def = s._zod.def as unknown as { type: string; shape?: Record<string, AnySchema> };
    if (def.type !== "object" || !def.shape) continue;
    for (const [k, v] of Object.entries(def.shape)) if ((v._zod as { optin?: string }).optin !== "optional") out.add(k);
  }
  return out;
}

const quoteList = (values: readonly unknown[]) => values.map((v) => `'${String(v)}'`).join(", ");
const isDefaultMessage = (m: string) => /^(Invalid input|Too big|Too small|Invalid option|Invalid string|Invalid|Unrecognized key)/.test(m);

function problem(path: readonly Segment[], message: string, rule: string, hint?: string, target: "key" | "value" = "value"): ConfigProblem {
  return { path: formatPath(path), segments: [...path], message, rule, target, ...(hint ? { hint } : {}) };
}

/** One zod issue (with its path made absolute) as problems. */
function convert(issue: Issue, prefix: readonly Segment[], input: unknown, schema: AnySchema): ConfigProblem[] {
  const path = [...prefix, ...(issue.path as Segment[])];
  const value = valueAt(input, path);
  const params = (issue as { params?: { hint?: string; rule?: string } }).params;
  switch (issue.code) {
    case "unrecognized_keys": {
      const allowed = allowedKeys(schema, path);
      return issue.keys.map((key) => {
        const near = closest(key, allowed);
        const hint = near ? `did you mean \`${near}\`?` : `allowed keys here: ${allowed.map((k) => `\`${k}\``).join(", ")}`;
        return problem([...path, key], `unknown key '${key}'`, "overlay:unknown-key", hint, "key");
      });
    }
    case "invalid_type": {
      if (value === undefined) return [problem(path, `is required (${A[issue.expected] ?? issue.expected})`, "overlay:required", example(path, issue.expected), "key")];
      if (!isDefaultMessage(issue.message)) return [problem(path, `${issue.message}; got ${show(value)}`, "overlay:type", example(path, issue.expected))];
      return [problem(path, `must be ${A[issue.expected] ?? issue.expected}, not ${A[kindOf(value)] ?? kindOf(value)} (${show(value)})`, "overlay:type", example(path, issue.expected))];
    }
    case "invalid_value": {
      if (value === undefined) return [problem(path, `is required (one of ${quoteList(issue.values)})`, "overlay:required", `e.g. \`${fieldName(path)}: "${String(issue.values[0])}"\``, "key")];
      if (!isDefaultMessage(issue.message)) return [problem(path, issue.message, "overlay:value")];
      const near = typeof value === "string" ? closest(value, issue.values.map(String)) : undefined;
      const message = issue.values.length === 1 ? `must be '${String(issue.values[0])}', not ${show(value)}` : `must be one of ${quoteList(issue.values)}; got ${show(value)}`;
      return [problem(path, message, "overlay:value", near ? `did you mean \`${near}\`?` : undefined)];
    }
    case "too_big":
    case "too_small": {
      if (!isDefaultMessage(issue.message)) {
        const got = typeof value === "string" ? (issue.message.includes("characters") ? `; it has ${value.length}` : "") : `; got ${show(value)}`;
        return [problem(path, `${issue.message}${got}`, "overlay:range")];
      }
      const bound = issue.code === "too_big" ? issue.maximum : issue.minimum;
      const exclusive = !issue.inclusive;
      const word = issue.code === "too_big" ? (exclusive ? "less than" : "at most") : exclusive ? "more than" : "at least";
      const size = issue.origin === "string" ? ` characters (has ${String(value).length})` : issue.origin === "array" ? ` items (has ${(value as unknown[]).length})` : "";
      const got = issue.origin === "string" || issue.origin === "array" ? "" : `; got ${show(value)}`;
      return [problem(path, `must be ${word} ${String(bound)}${size}${got}`, "overlay:range")];
    }
    case "invalid_format": {
      const hint = params?.hint ?? example(path, "string");
      return [problem(path, `${isDefaultMessage(issue.message) ? `must match ${(issue as { pattern?: string }).pattern ?? issue.format}` : issue.message}; got ${show(value)}`, "overlay:format", hint)];
    }
    case "invalid_union":
      return convertUnion(issue, path, value, input, schema);
    default:
      return [problem(path, isDefaultMessage(issue.message) ? `${issue.message}; got ${show(value)}` : issue.message, params?.rule ?? "overlay:check", params?.hint)];
  }
}

/** A value none of a union's options accepts: unknown keys of an object first, else the option that came closest. */
function convertUnion(issue: Extract<Issue, { code: "invalid_union" }>, path: Segment[], value: unknown, input: unknown, schema: AnySchema): ConfigProblem[] {
  const branches = issue.errors as Issue[][];
  if (!isDefaultMessage(issue.message)) return [problem(path, `${issue.message}; got ${show(value)}`, "overlay:value")];
  if (branches.length > 0 && branches.every((b) => b.length === 1 && b[0]?.code === "invalid_type" && b[0].path.length === 0)) {
    const expected = [...new Set(branches.map((b) => (b[0] as { expected: string }).expected))];
    const what = expected.map((e) => A[e] ?? e).join(" or ");
    return [problem(path, `must be ${what}, not ${A[kindOf(value)] ?? kindOf(value)} (${show(value)})`, "overlay:type", example(path, expected[0] ?? "string"))];
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const allowed = allowedKeys(schema, path);
    const unknown = Object.keys(value).filter((k) => !allowed.includes(k));
    if (unknown.length > 0)
      return unknown.map((key) => {
        const near = closest(key, allowed);
        return problem([...path, key], `unknown key '${key}'`, "overlay:unknown-key", near ? `did you mean \`${near}\`?` : `allowed keys here: ${allowed.map((k) => `\`${k}\``).join(", ")}`, "key");
      });
  }
  // the option with the fewest problems, ignoring "required" ones (the value was meant as another option)
  const scored = branches.map((b) => ({ b, score: b.filter((i) => !(i.code === "invalid_type" && valueAt(value, i.path as Segment[]) === undefined)).length * 10 + b.length }));
  scored.sort((x, y) => x.score - y.score);
  const best = scored[0]?.b ?? [];
  if (best.length === 0) return [problem(path, `is not valid; got ${show(value)}`, "overlay:value")];
  return best.flatMap((i) => convert(i, path, input, schema));
}

/** Every issue of a failed parse as problems, a misspelt key's "required" twin dropped (the typo says it all). */
export function problemsFromIssues(issues: readonly Issue[], input: unknown, schema: AnySchema): ConfigProblem[] {
  const problems = issues.flatMap((i) => convert(i, [], input, schema));
  const suggested = new Set(
    problems.filter((p) => p.rule === "overlay:unknown-key" && p.hint?.startsWith("did you mean")).map((p) => `${formatPath(p.segments?.slice(0, -1) ?? [])}|${/`(.*)`/.exec(p.hint ?? "")?.[1]}`),
  );
  const kept = problems.filter((p) => {
    if (p.rule !== "overlay:required") return true;
    const parent = p.segments?.slice(0, -1) ?? [];
    const key = p.segments?.[p.segments.length - 1];
    return !(typeof key === "string" && suggested.has(`${formatPath(parent)}|${key}`) && requiredKeys(schema, parent).has(key));
  });
  return kept;
}

/** Whether `key` is a field the overlay may set on the object at `path` (a value left unset there is a default). */
export function isOverlayField(schema: AnySchema, path: readonly Segment[], key: string | number): boolean {
  return typeof key === "string" && allowedKeys(schema, path).includes(key);
}
