// Secret values never reach the rendered diff: each value under a Secret's data/stringData (and last-applied annotation) becomes its length, marked when it changed.
import { isMap, isNode, isScalar, parseAllDocuments, Scalar, type Document } from "yaml";

/**
 * Maps of a Secret whose values are secret: `data` (base64), `stringData` (plain) and the annotations,
 * of which only `kubectl.kubernetes.io/last-applied-configuration` is hidden (it is the whole object).
 */
const SECRET_FIELDS = [["data"], ["stringData"], ["metadata", "annotations"]] as const;
const LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
const isSecretKey = (field: readonly string[], key: string) => field[0] !== "metadata" || key === LAST_APPLIED;

/**
 * Cheap pre-check: only files that may hold a Secret are parsed. What counts is the decoded object, so a
 * file with any escape (`kind: "\x53ecret"`, `"\u0053ecret"`, an escaped line break) is parsed too.
 */
const MAY_BE_SECRET = /Secret|\\/;

type Values = Map<string, string>;

/** A value node as plain data. */
function plain(node: unknown): unknown {
  return isScalar(node) ? node.value : isNode(node) ? node.toJSON() : (node ?? null);
}

/** The Secret documents of a file: per document index, `field\0key` -> value as text (undefined if not a Secret). */
function secretValues(docs: readonly Document.Parsed[]): (Values | undefined)[] {
  return docs.map((doc) => {
    // the decoded object decides: escapes, quoting, comments and aliases resolved
    const object = doc.toJS({ maxAliasCount: 1000 }) as { kind?: unknown } | null;
    if (object === null || typeof object !== "object" || object.kind !== "Secret") return undefined;
    const values: Values = new Map();
    for (const field of SECRET_FIELDS) {
      const map = doc.getIn(field, true);
      if (!isMap(map)) continue;
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (isSecretKey(field, key)) values.set(`${field.join(".")}\0${key}`, JSON.stringify(plain(pair.value)));
      }
    }
    return values;
  });
}

function byteLength(value: unknown): number {
  return Buffer.byteLength(typeof value === "string" ? value : JSON.stringify(value ?? null));
}

/** One side with its Secret values replaced; on the new side, values that differ from `other` (the old side) are marked. */
function redactSide(text: string, docs: readonly Document.Parsed[], own: readonly (Values | undefined)[], other: readonly (Values | undefined)[] | undefined): string {
  if (!own.some((v) => v !== undefined)) return text;
  docs.forEach((doc, i) => {
    const mine = own[i];
    if (!mine) return;
    for (const field of SECRET_FIELDS) {
      const map = doc.getIn(field, true);
      if (!isMap(map)) continue;
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (!isSecretKey(field, key)) continue;
        const theirs = other?.[i]?.get(`${field.join(".")}\0${key}`);
        const changed = theirs !== undefined && theirs !== mine.get(`${field.join(".")}\0${key}`);
        const value = plain(pair.value);
        const shown = new Scalar(`(redacted: ${byteLength(value)} bytes${changed ? ", changed" : ""})`);
        shown.type = Scalar.QUOTE_DOUBLE;
        pair.value = shown;
      }
    }
  });
  return docs.map((d) => d.toString({ lineWidth: 0 })).join("");
}

function parse(text: string | undefined): { docs: Document.Parsed[]; unreadable: boolean } | undefined {
  if (text === undefined || !MAY_BE_SECRET.test(text)) return undefined;
  const docs = parseAllDocuments(text);
  // a file that does not parse cannot be judged object by object: all of it is hidden when it mentions Secret
  // (or holds an escape that may spell it), however its `kind:` line is written (quoted, commented, flow)
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length > 0)) return { docs: [], unreadable: true };
  try {
    for (const d of docs) d.toJS({ maxAliasCount: 1000 });
  } catch {
    return { docs: [], unreadable: true }; // an alias bomb or an unresolved alias: not readable either
  }
  return { docs, unreadable: false };
}

/**
 * Both sides of a changed file with Secret values replaced by `(redacted: N bytes)` (`, changed` on
 * the new side where the old side has the key with another value), so a diff shows which keys changed and nothing of
 * their values. A file that looks like a Secret but does not parse is replaced by one line.
 */
export function redactSecrets(before: string | undefined, after: string | undefined): [string | undefined, string | undefined] {
  const a = parse(before);
  const b = parse(after);
  if (!a && !b) return [before, after];
  const unreadable = (text: string) => `# does not parse and may hold a Secret: content not shown (${Buffer.byteLength(text)} bytes)\n`;
  const va = a ? secretValues(a.docs) : [];
  const vb = b ? secretValues(b.docs) : [];
  const side = (text: string | undefined, p: typeof a, own: (Values | undefined)[], other: (Values | undefined)[] | undefined) =>
    text === undefined || !p ? text : p.unreadable ? unreadable(text) : redactSide(text, p.docs, own, other);
  return [side(before, a, va, undefined), side(after, b, vb, va)];
}
