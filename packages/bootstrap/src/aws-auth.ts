// The aws-auth ConfigMap: adding and removing the node role in mapRoles without losing any other entry or field.
import { isDeepStrictEqual } from "node:util";
import { type Document, isNode, isScalar, isSeq, type Node, parseDocument, stringify, visit, YAMLSeq } from "yaml";

export const AWS_AUTH = { namespace: "kube-system", name: "aws-auth" } as const;

/** The username EKS expands per node; it must reach the ConfigMap as this literal text. */
export const NODE_USERNAME = "system:node:{{EC2PrivateDNSName}}";
export const NODE_GROUPS = ["system:bootstrappers", "system:nodes"] as const;

export interface MapRole {
  readonly rolearn: string;
  readonly username: string;
  readonly groups: readonly string[];
}

export function nodeRoleMapping(roleArn: string): MapRole {
  return { rolearn: roleArn, username: NODE_USERNAME, groups: [...NODE_GROUPS] };
}

export interface AwsAuthEdit {
  /** The new `data` (the input object itself when nothing changes). */
  readonly data: Readonly<Record<string, string>>;
  readonly changed: boolean;
  /** Set when an entry for the role exists but maps it differently; it is left as it is. */
  readonly warning?: string;
}

/** Thrown when mapRoles cannot be read; the ConfigMap is then left untouched. */
export class AwsAuthFormatError extends Error {
  override name = "AwsAuthFormatError";
}

const WHERE = "ConfigMap kube-system/aws-auth";
/** Go's YAML reader (aws-iam-authenticator) applies `<<` merge keys: so do we, to read the entries it reads. */
const PARSE = { merge: true, uniqueKeys: true } as const;

/**
 * A mapping with a key twice is read differently by readers (Go's keeps the last, others the first),
 * so an edit could remove or keep the wrong role: refused, as is YAML that does not parse.
 */
function parseChecked(field: "mapRoles" | "mapUsers", text: string): Document.Parsed {
  // parseDocument (not parse) so that comments, quoting and key order of existing entries survive the edit.
  const doc = parseDocument(text, PARSE);
  const duplicate = doc.errors.find((e) => e.code === "DUPLICATE_KEY");
  if (duplicate) {
    const line = duplicate.linePos?.[0].line;
    throw new AwsAuthFormatError(
      `${WHERE} data.${field}${line ? ` line ${line}` : ""}: an entry has the same key twice (${duplicate.message.split("\n")[0]}); readers disagree on which one counts, so nothing was changed: remove the duplicate key by hand (kubectl edit -n kube-system configmap aws-auth) and run again`,
    );
  }
  // mapUsers is only read for duplicate keys: it is never edited, and what does not parse is not ours to judge
  if (doc.errors.length > 0 && field === "mapRoles") {
    throw new AwsAuthFormatError(`${WHERE}: data.${field} is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}; nothing was changed: fix it by hand (kubectl edit -n kube-system configmap aws-auth) and run again`);
  }
  return doc;
}

function readMapRoles(data: Readonly<Record<string, string>>) {
  if (data.mapUsers !== undefined) parseChecked("mapUsers", data.mapUsers);
  const doc = parseChecked("mapRoles", data.mapRoles ?? "");
  if (doc.contents === null || (isScalar(doc.contents) && (doc.contents.value === null || doc.contents.value === ""))) {
    doc.contents = new YAMLSeq() as never;
  }
  if (!isSeq(doc.contents)) {
    throw new AwsAuthFormatError(`${WHERE}: data.mapRoles must be a YAML list of {rolearn, username, groups}`);
  }
  // every entry as a reader sees it: aliases and merge keys resolved. A `<<` whose value is not a map (or a list
  // of maps) is refused by Go's reader too ("map merge requires map or sequence of maps"): not ours to rewrite.
  let entries: unknown[];
  try {
    entries = doc.toJS({ maxAliasCount: 1000 }) as unknown[];
  } catch (e) {
    throw new AwsAuthFormatError(
      `${WHERE}: data.mapRoles cannot be read as aws-iam-authenticator reads it (${(e as Error).message.split("\n")[0]}); nothing was changed: fix it by hand (kubectl edit -n kube-system configmap aws-auth) and run again`,
    );
  }
  return { doc, seq: doc.contents as YAMLSeq, entries };
}

const roleArnOf = (entry: unknown): unknown => (entry !== null && typeof entry === "object" ? (entry as { rolearn?: unknown }).rolearn : undefined);

/**
 * Removing an entry that defines an anchor (`groups: &nodegroups [...]`) would leave the aliases of the
 * entries that stay (`groups: *nodegroups`) pointing nowhere: every later read fails with `Unresolved alias`.
 * So an alias into a removed entry is replaced by a copy of its value first (the entries that stay read the same).
 */
function resolveAliasesInto(doc: Document.Parsed, removed: readonly unknown[]): void {
  const inside = new Set<Node>();
  for (const item of removed) {
    if (!isNode(item)) continue;
    inside.add(item);
    visit(item, (_key, node) => {
      if (isNode(node)) inside.add(node);
    });
  }
  visit(doc, {
    Alias(_key, alias) {
      const target = alias.resolve(doc);
      if (!target || !inside.has(target)) return undefined;
      const copy = target.clone() as Node & { anchor?: string };
      copy.anchor = undefined;
      // an alias inside the copy may itself point into a removed entry: resolved on the next pass
      return copy;
    },
  });
}

/**
 * Adds the node role to mapRoles. Every other key of `data`, every other entry and every field of
 * them are kept as they were; no-op when an entry for the role is already there.
 */
export function addNodeRole(data: Readonly<Record<string, string>> | undefined, roleArn: string): AwsAuthEdit {
  const current = data ?? {};
  const { doc, seq, entries } = readMapRoles(current);
  const existing = entries.find((e) => roleArnOf(e) === roleArn);
  if (existing) {
    const e = existing as Record<string, unknown>;
    const groups = Array.isArray(e.groups) ? (e.groups as unknown[]).map(String) : [];
    const same = e.username === NODE_USERNAME && NODE_GROUPS.every((g) => groups.includes(g));
    return same
      ? { data: current, changed: false }
      : {
          data: current,
          changed: false,
          warning: `aws-auth already maps ${roleArn} as username '${String(e.username)}' groups [${groups.join(", ")}]; left unchanged (nodes need '${NODE_USERNAME}' in ${NODE_GROUPS.join(", ")})`,
        };
  }
  const entry = nodeRoleMapping(roleArn);
  const before = entries;
  // Appending text keeps the existing bytes exactly (comments, quoting, indentation); it is used only
  // when re-reading the result gives exactly the old entries plus the new one.
  const text = current.mapRoles ?? "";
  if (isSeq(doc.contents) && !seq.flow && text.trim() !== "") {
    const appended = `${text.endsWith("\n") ? text : `${text}\n`}${stringify([entry], { lineWidth: 0 })}`;
    const check = parseDocument(appended, PARSE);
    if (check.errors.length === 0 && isDeepStrictEqual(check.toJS({ maxAliasCount: 1000 }), [...before, entry])) {
      return { data: { ...current, mapRoles: appended }, changed: true };
    }
  }
  seq.items.push(doc.createNode(entry));
  return { data: { ...current, mapRoles: doc.toString({ lineWidth: 0 }) }, changed: true };
}

/** Removes every mapRoles entry of the role; everything else is kept. No-op when there is none. */
export function removeRole(data: Readonly<Record<string, string>> | undefined, roleArn: string): AwsAuthEdit {
  const current = data ?? {};
  if (current.mapRoles === undefined) return { data: current, changed: false };
  const { doc, seq, entries } = readMapRoles(current);
  const removed = seq.items.filter((_, i) => roleArnOf(entries[i]) === roleArn);
  if (removed.length === 0) return { data: current, changed: false };
  // resolve until no alias points into a removed entry (a copied value may hold one)
  for (let pass = 0; pass < 100; pass++) {
    const text = doc.toString({ lineWidth: 0 });
    resolveAliasesInto(doc, removed);
    if (doc.toString({ lineWidth: 0 }) === text) break;
  }
  seq.items = seq.items.filter((i) => !removed.includes(i));
  const mapRoles = doc.toString({ lineWidth: 0 });
  // what stays must read exactly as before (aliases resolved, nothing else moved)
  const check = parseDocument(mapRoles, PARSE);
  const kept = entries.filter((e) => roleArnOf(e) !== roleArn);
  if (check.errors.length > 0 || !isDeepStrictEqual(check.toJS({ maxAliasCount: 1000 }) ?? [], kept)) {
    throw new AwsAuthFormatError(
      `${WHERE} data.mapRoles: removing the entries of ${roleArn} would change how the other entries read (anchors, aliases or merge keys across entries); nothing was changed: remove that entry by hand (kubectl edit -n kube-system configmap aws-auth)`,
    );
  }
  return { data: { ...current, mapRoles }, changed: true };
}

/** True when mapRoles has an entry for the role. */
export function hasRole(data: Readonly<Record<string, string>> | undefined, roleArn: string): boolean {
  if (data?.mapRoles === undefined) return false;
  return readMapRoles(data).entries.some((e) => roleArnOf(e) === roleArn);
}
