// The aws-auth ConfigMap: adding and removing the node role in mapRoles without losing any other entry or field.
import { isDeepStrictEqual } from "node:util";
import { isMap, isScalar, isSeq, parseDocument, stringify, YAMLSeq } from "yaml";

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

function readMapRoles(text: string | undefined) {
  // parseDocument (not parse) so that comments, quoting and key order of existing entries survive the edit.
  const doc = parseDocument(text ?? "", { uniqueKeys: false });
  if (doc.errors.length > 0) {
    throw new AwsAuthFormatError(`ConfigMap kube-system/aws-auth: data.mapRoles is not valid YAML: ${doc.errors[0]!.message.split("\n")[0]}`);
  }
  if (doc.contents === null || (isScalar(doc.contents) && (doc.contents.value === null || doc.contents.value === ""))) {
    doc.contents = new YAMLSeq() as never;
  }
  if (!isSeq(doc.contents)) {
    throw new AwsAuthFormatError("ConfigMap kube-system/aws-auth: data.mapRoles must be a YAML list of {rolearn, username, groups}");
  }
  return { doc, seq: doc.contents as YAMLSeq };
}

const roleArnOf = (item: unknown): unknown => (isMap(item) ? item.get("rolearn") : undefined);

/**
 * Adds the node role to mapRoles. Every other key of `data`, every other entry and every field of
 * them are kept as they were; no-op when an entry for the role is already there.
 */
export function addNodeRole(data: Readonly<Record<string, string>> | undefined, roleArn: string): AwsAuthEdit {
  const current = data ?? {};
  const { doc, seq } = readMapRoles(current.mapRoles);
  const existing = seq.items.find((i) => roleArnOf(i) === roleArn);
  if (existing) {
    const e = (existing as { toJSON(): Record<string, unknown> }).toJSON();
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
  const before = seq.toJSON() as unknown[];
  // Appending text keeps the existing bytes exactly (comments, quoting, indentation); it is used only
  // when re-reading the result gives exactly the old entries plus the new one.
  const text = current.mapRoles ?? "";
  if (isSeq(doc.contents) && !seq.flow && text.trim() !== "") {
    const appended = `${text.endsWith("\n") ? text : `${text}\n`}${stringify([entry], { lineWidth: 0 })}`;
    const check = parseDocument(appended, { uniqueKeys: false });
    if (check.errors.length === 0 && isDeepStrictEqual(check.toJSON(), [...before, entry])) {
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
  const { doc, seq } = readMapRoles(current.mapRoles);
  const before = seq.items.length;
  seq.items = seq.items.filter((i) => roleArnOf(i) !== roleArn);
  if (seq.items.length === before) return { data: current, changed: false };
  return { data: { ...current, mapRoles: doc.toString({ lineWidth: 0 }) }, changed: true };
}

/** True when mapRoles has an entry for the role. */
export function hasRole(data: Readonly<Record<string, string>> | undefined, roleArn: string): boolean {
  if (data?.mapRoles === undefined) return false;
  return readMapRoles(data.mapRoles).seq.items.some((i) => roleArnOf(i) === roleArn);
}
