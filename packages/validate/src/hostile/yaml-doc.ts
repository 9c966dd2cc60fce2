// What the `yaml` library accepts in a document but kubectl would not send as written: tags it cannot resolve
// (`!!int x`, `!!bool maybe`, `!!js/function`, local `!tags`), tags outside JSON's types (`!!binary`, `!!set`),
// and keys that are lists or maps (JavaScript would turn them into "x,y" or "[object Object]").
import type { Document, LineCounter } from "yaml";
import { yamlLib } from "../yaml-lib.ts";

/** Explicit tags that mean a JSON type (long form). */
const JSON_TAGS = new Set(["str", "int", "float", "bool", "null", "map", "seq"].map((t) => `tag:yaml.org,2002:${t}`));

const shortTag = (tag: string) => tag.replace(/^tag:yaml\.org,2002:/, "!!");

// A complex key's two signs, each tried only on a text holding its indicator (issue 19: most texts hold neither
// `]`, `}` nor `?`, and includes() finds that faster than a regular expression tries every position)
const FLOW_KEY = /[\]}][ \t]*:(?:[ \t\r\n]|$)/m;
const EXPLICIT_KEY = /(?:^|[\s,[{])\?(?:[ \t\r\n]|$)/m;

/**
 * A complex key anywhere in a text, roughly: a flow list or map closed right before `:`, or the explicit key
 * indicator `?`. Texts that match are read by `yaml`, which decides exactly; false matches only cost speed.
 */
export const MAY_HAVE_COMPLEX_KEY = new RegExp(`${FLOW_KEY.source}|${EXPLICIT_KEY.source}`, "m");

/** MAY_HAVE_COMPLEX_KEY.test(text), faster. */
export function mayHaveComplexKey(text: string): boolean {
  return ((text.includes("]") || text.includes("}")) && FLOW_KEY.test(text)) || (text.includes("?") && EXPLICIT_KEY.test(text));
}

export interface DocProblem {
  readonly rule: string;
  readonly message: string;
}

/** The first tag or key problem of a parsed document (with its line), or undefined. */
export function documentProblem(doc: Document, lines: LineCounter): DocProblem | undefined {
  const { visit, isCollection, isNode, isScalar, isSeq } = yamlLib();
  const at = (range: readonly number[] | null | undefined) => {
    if (!range) return "";
    const p = lines.linePos(range[0] ?? 0);
    return ` (line ${p.line}, column ${p.col})`;
  };
  const tagWarning = doc.warnings.find((w) => w.code === "TAG_RESOLVE_FAILED");
  if (tagWarning) {
    const p = lines.linePos(tagWarning.pos[0]);
    const tag = /tag: (\S+)/.exec(tagWarning.message)?.[1] ?? "?";
    return { rule: "parse:tag", message: `YAML tag ${shortTag(tag)} cannot be resolved (line ${p.line}, column ${p.col}): kubectl would refuse the file; remove the tag or quote the value` };
  }
  let found: DocProblem | undefined;
  visit(doc, {
    Node(_key, node) {
      if (node.tag && !JSON_TAGS.has(node.tag)) {
        found = { rule: "parse:tag", message: `YAML tag ${shortTag(node.tag)}${at(node.range)} is not a JSON type: kubectl would not send it as written; remove the tag` };
        return visit.BREAK;
      }
      return undefined;
    },
    Pair(_key, pair) {
      if (isNode(pair.key) && (isCollection(pair.key) || (isScalar(pair.key) && pair.key.value !== null && typeof pair.key.value === "object"))) {
        found = { rule: "parse:complex-key", message: `a ${isSeq(pair.key) ? "list" : "map"} used as a key${at(pair.key.range)}: Kubernetes objects only have string keys` };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
