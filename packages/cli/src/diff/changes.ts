// diffRendered(): what changed between two rendered trees, object by object, with IAM changes first. Pure.
import { COMPONENTS } from "@eks-gitops/config";
import { structuredPatch } from "diff";
import { parseDocument } from "yaml";
import { redactSecrets } from "./redact.ts";

export type ChangeType = "added" | "changed" | "removed";

export interface ObjectChange {
  readonly change: ChangeType;
  readonly cluster: string;
  readonly component: string;
  /** Repository path of the file. */
  readonly path: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  /** An IAM document, or a change that touches an IAM role ARN (e.g. an IRSA annotation). */
  readonly iam: boolean;
  /** Unified diff hunks (`@@` headers and `+`/`-`/` ` lines), three lines of context. */
  readonly hunks: readonly string[];
}

export interface KindCount {
  added: number;
  changed: number;
  removed: number;
}

export interface RenderedDiff {
  /** IAM changes first, then by cluster, component and path. */
  readonly changes: readonly ObjectChange[];
  readonly totals: KindCount;
  /** Per kind, sorted by kind. */
  readonly kinds: ReadonlyMap<string, KindCount>;
  readonly clusters: readonly string[];
}

const IAM_LINE = /arn:aws[a-z-]*:iam::|eks\.amazonaws\.com\/role-arn/;

/** Compares two maps of `clusters/<name>/rendered/<component>/<file>` -> content. */
export function diffRendered(base: ReadonlyMap<string, string>, head: ReadonlyMap<string, string>): RenderedDiff {
  const changes: ObjectChange[] = [];
  for (const path of new Set([...base.keys(), ...head.keys()])) {
    if (base.get(path) === head.get(path)) continue;
    const [before, after] = redactSecrets(base.get(path), head.get(path));
    const change: ChangeType = before === undefined ? "added" : after === undefined ? "removed" : "changed";
    const [, cluster = "", , component = "", ...rest] = path.split("/");
    const hunks = unifiedHunks(before ?? "", after ?? "");
    const identity = identify(component, rest.join("/"), after ?? before ?? "");
    const iam = component === COMPONENTS.iam || hunks.some((l) => (l[0] === "+" || l[0] === "-") && IAM_LINE.test(l));
    changes.push({ change, cluster, component, path, ...identity, iam, hunks });
  }
  changes.sort((a, b) => Number(b.iam) - Number(a.iam) || cmp(a.cluster, b.cluster) || cmp(a.component, b.component) || cmp(a.path, b.path));

  const totals: KindCount = { added: 0, changed: 0, removed: 0 };
  const kinds = new Map<string, KindCount>();
  for (const c of changes) {
    totals[c.change]++;
    const k = kinds.get(c.kind) ?? { added: 0, changed: 0, removed: 0 };
    k[c.change]++;
    kinds.set(c.kind, k);
  }
  return {
    changes,
    totals,
    kinds: new Map([...kinds].sort(([a], [b]) => cmp(a, b))),
    clusters: [...new Set(changes.map((c) => c.cluster))].sort(),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Past this many differing lines a file is shown as rewritten: Myers' diff costs O(N·D) and gains nothing there. */
export const MAX_EDIT_LENGTH = 200;

function unifiedHunks(before: string, after: string): string[] {
  const patch = structuredPatch("a", "b", before, after, undefined, undefined, { context: 3, maxEditLength: MAX_EDIT_LENGTH });
  if (patch !== undefined) return patch.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`, ...h.lines]);
  const lines = (s: string) => (s === "" ? [] : s.replace(/\n$/, "").split("\n"));
  const old = lines(before);
  const now = lines(after);
  return [
    `@@ -${old.length === 0 ? 0 : 1},${old.length} +${now.length === 0 ? 0 : 1},${now.length} @@ rewritten (more than ${MAX_EDIT_LENGTH} lines differ)`,
    ...old.map((l) => `-${l}`),
    ...now.map((l) => `+${l}`),
  ];
}

/** Kind and name of a rendered file: from the object for YAML, from the file name for IAM JSON documents. */
function identify(component: string, file: string, content: string): { kind: string; name: string; namespace?: string } {
  if (file.endsWith(".json")) {
    const base = file.slice(0, -".json".length);
    if (component === COMPONENTS.iam && base === "index") return { kind: "IAM role index", name: "index.json" };
    const dot = base.indexOf(".");
    if (dot === -1) return { kind: "JSON", name: base };
    // The policies package writes `<role>.trust-policy.json`, `<queue>.queue-policy.json` and `<role>.<policy>.json`.
    const owner = base.slice(0, dot);
    const doc = base.slice(dot + 1);
    if (doc === "trust-policy") return { kind: "IAM trust policy", name: owner };
    if (doc === "queue-policy") return { kind: "SQS queue policy", name: owner };
    return { kind: "IAM policy", name: `${owner}/${doc}` };
  }
  try {
    const o = parseDocument(content).toJS() as { kind?: unknown; metadata?: { name?: unknown; namespace?: unknown } } | null;
    if (o && typeof o.kind === "string" && typeof o.metadata?.name === "string") {
      return { kind: o.kind, name: o.metadata.name, ...(typeof o.metadata.namespace === "string" ? { namespace: o.metadata.namespace } : {}) };
    }
  } catch {
    // Not YAML we understand: fall through to the file name, the diff still shows the lines.
  }
  return { kind: "file", name: file };
}
