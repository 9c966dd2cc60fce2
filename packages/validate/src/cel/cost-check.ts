// The API server's CEL cost checks applied to one CRD schema (static, as when the CRD is created) and to one
// object's rules (run time, before each rule runs). See cost.ts for the limits and the model.
import type { ASTNode } from "@marcbachmann/cel-js";
import type { SchemaNode } from "../schema/model.ts";
import type { ValidationRule } from "../schema/walk.ts";
import { costErrorMessage, estimateCost, PER_CALL_LIMIT, type Shape, shapeOfSchema, shapeOfValue, STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT } from "./cost.ts";

export interface RuleCost {
  readonly ast: ASTNode;
  /** Estimated cost of one evaluation with the sizes the schema allows. */
  readonly perCall: number;
  /** The API server would refuse the CRD because of this rule: the reason. */
  readonly refused?: string;
}

export interface CostProblem {
  readonly pointer: string;
  readonly message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
// products of sizes are capped: only comparisons against the limits matter
const times = (a: number, b: number) => Math.min(a * b, Number.MAX_SAFE_INTEGER);

/**
 * Estimates every rule of a CRD schema (once per schema) and records each in `costs`; returns the problems the
 * API server would refuse the CRD for (pointers prefixed with `base`).
 */
export function checkSchemaCosts(root: SchemaNode, base: string, parse: (expr: string) => ASTNode | undefined, costs: WeakMap<ValidationRule, RuleCost>): CostProblem[] {
  const problems: CostProblem[] = [];
  const totals: { pointer: string; cost: number; rule: ValidationRule }[] = [];
  const stack: [SchemaNode, string, number, number][] = [[root, base, 1, 0]];
  while (stack.length > 0) {
    const [node, at, cardinality, depth] = stack.pop() as [SchemaNode, string, number, number];
    if (!isObject(node) || depth > 256) continue;
    const rules = node["x-kubernetes-validations"];
    if (Array.isArray(rules) && rules.length > 0) {
      const shape: Shape = shapeOfSchema(node);
      rules.forEach((rule: unknown, i) => {
        if (!isObject(rule) || typeof rule.rule !== "string") return;
        const ast = parse(rule.rule);
        if (!ast) return;
        const perCall = estimateCost(ast, shape, { oldSelf: shape });
        const total = times(perCall, cardinality);
        const pointer = `${at}/x-kubernetes-validations/${i}/rule`;
        let refused: string | undefined;
        if (total > STATIC_ESTIMATED_COST_LIMIT) {
          refused = costErrorMessage("estimated rule cost", total, STATIC_ESTIMATED_COST_LIMIT);
          problems.push({ pointer, message: `Forbidden: ${refused}` });
        }
        totals.push({ pointer, cost: total, rule: rule as unknown as ValidationRule });
        costs.set(rule as unknown as ValidationRule, { ast, perCall, ...(refused ? { refused } : {}) });
      });
    }
    const shape = () => shapeOfSchema(node);
    if (isObject(node.properties)) for (const [k, v] of Object.entries(node.properties)) stack.push([v as SchemaNode, `${at}/properties/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`, cardinality, depth + 1]);
    if (isObject(node.items)) stack.push([node.items as SchemaNode, `${at}/items`, times(cardinality, shape().size), depth + 1]);
    if (isObject(node.additionalProperties)) stack.push([node.additionalProperties as SchemaNode, `${at}/additionalProperties`, times(cardinality, shape().size), depth + 1]);
  }
  const sum = totals.reduce((s, t) => Math.min(s + t.cost, Number.MAX_SAFE_INTEGER), 0);
  if (sum > STATIC_ESTIMATED_CRD_COST_LIMIT) {
    const reason = costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", sum, STATIC_ESTIMATED_CRD_COST_LIMIT);
    // the four most expensive rules that contribute at least 1% are named, as the API server does
    const top = totals.filter((t) => t.cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100).sort((a, b) => b.cost - a.cost).slice(0, 4);
    for (const t of top) {
      problems.push({ pointer: t.pointer, message: "Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema" });
      const known = costs.get(t.rule);
      if (known && !known.refused) costs.set(t.rule, { ...known, refused: reason });
    }
    problems.push({ pointer: base, message: `Forbidden: ${reason}` });
  }
  return problems;
}

/** Rules cheaper than this (by the schema's sizes) are counted at that estimate; dearer ones are measured on the value. */
const CHEAP = 10_000;

/** The run-time cost of one rule on one value: the schema estimate when small, else the estimate with the value's sizes. */
export function runtimeCost(cost: RuleCost, value: unknown, old: unknown): number {
  if (cost.perCall <= CHEAP) return cost.perCall;
  const self = shapeOfValue(value);
  return estimateCost(cost.ast, self, { oldSelf: old === undefined ? self : shapeOfValue(old) });
}

export { PER_CALL_LIMIT };
