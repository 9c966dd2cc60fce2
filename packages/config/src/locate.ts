// Where a field of an overlay is written in its cluster.ts: the TypeScript compiler's parser (no type-checking)
// walks `export default defineCluster({...})` along the field's path. Loaded only when an overlay has a problem
// (the compiler is large): the happy path never pays for it.
import { createRequire } from "node:module";
import type * as TS from "typescript";

type Segment = string | number;

export interface SourcePosition {
  /** 1-based. */
  readonly line: number;
  /** 1-based, in characters. */
  readonly column: number;
  /** How many segments of the path are written in the source (all of them: the field itself was found). */
  readonly depth: number;
}

let ts: typeof TS | undefined;
const typescript = (): typeof TS => {
  ts ??= createRequire(import.meta.url)("typescript") as typeof TS;
  return ts;
};

/** A parsed overlay: ask it for the position of field paths. */
export interface OverlaySource {
  /** The position of the field at `path`: its key (`target: "key"`) or its value; the nearest written parent when the path is not all written. */
  locate(path: readonly Segment[], target?: "key" | "value"): SourcePosition | undefined;
}

export function parseOverlay(fileName: string, text: string): OverlaySource {
  const t = typescript();
  const source = t.createSourceFile(fileName, text, t.ScriptTarget.Latest, true, t.ScriptKind.TS);
  let depth = 0;
  const position = (node: TS.Node): SourcePosition => {
    const { line, character } = source.getLineAndCharacterOfPosition(node.getStart(source));
    return { line: line + 1, column: character + 1, depth };
  };

  /** Top-level `const x = ...` initialisers, so a shared value (`workloads: [web]`) is followed to where it is written. */
  const constants = new Map<string, TS.Expression>();
  for (const statement of source.statements)
    if (t.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations) if (t.isIdentifier(d.name) && d.initializer) constants.set(d.name.text, d.initializer);

  /** Looks through `(x)`, `x as T`, `x satisfies T`, `defineCluster(x)` and a constant's name to the literal. */
  const literal = (node: TS.Expression | undefined, depth = 0): TS.Expression | undefined => {
    if (!node || depth > 20) return node;
    if (t.isParenthesizedExpression(node) || t.isAsExpression(node) || t.isSatisfiesExpression(node) || t.isNonNullExpression(node)) return literal(node.expression, depth + 1);
    if (t.isCallExpression(node) && node.arguments.length === 1) return literal(node.arguments[0], depth + 1);
    if (t.isIdentifier(node) && constants.has(node.text)) return literal(constants.get(node.text), depth + 1);
    return node;
  };

  const propertyName = (p: TS.ObjectLiteralElementLike): string | undefined => {
    const name = p.name;
    if (!name) return undefined;
    if (t.isIdentifier(name) || t.isStringLiteral(name) || t.isNumericLiteral(name) || t.isNoSubstitutionTemplateLiteral(name)) return name.text;
    if (t.isComputedPropertyName(name) && t.isStringLiteralLike(name.expression)) return name.expression.text;
    return undefined;
  };

  let root: TS.Expression | undefined;
  for (const statement of source.statements) if (t.isExportAssignment(statement) && !statement.isExportEquals) root = statement.expression;

  return {
    locate(path, target = "value") {
      let node = literal(root);
      depth = 0;
      if (!node) return undefined;
      /** What to point at when the walk stops: the last key found, or the value itself. */
      let last: TS.Node = node;
      for (const [i, seg] of path.entries()) {
        const final = i === path.length - 1;
        depth = i;
        if (t.isObjectLiteralExpression(node) && typeof seg === "string") {
          // the last property of that name wins, as in JavaScript
          const prop = [...node.properties].reverse().find((p) => propertyName(p) === seg);
          if (!prop) return position(last);
          depth = i + 1;
          if (t.isPropertyAssignment(prop)) {
            if (final) return position(target === "key" ? prop.name : prop.initializer);
            last = prop.name;
            node = literal(prop.initializer);
          } else if (t.isShorthandPropertyAssignment(prop)) {
            if (final) return position(prop.name);
            last = prop.name;
            node = literal(prop.name);
          } else return position(prop);
        } else if (t.isArrayLiteralExpression(node) && typeof seg === "number") {
          // a spread element makes later indexes unknowable from the source alone
          const before = node.elements.slice(0, seg + 1);
          const element = node.elements[seg];
          if (!element || before.some((e) => t.isSpreadElement(e))) return position(last);
          depth = i + 1;
          if (final) return position(element);
          last = element;
          node = literal(element);
        } else return position(last);
        if (!node) return position(last);
      }
      return position(last);
    },
  };
}
