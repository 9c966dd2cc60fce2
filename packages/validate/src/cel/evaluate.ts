// Evaluating collected x-kubernetes-validations rules the way the API server reports them.
import type { Environment } from "@marcbachmann/cel-js";
import type { CelTask, ValidationRule } from "../schema/walk.ts";
import type { Finding } from "../types.ts";
import { createCelEnvironment, useRe2Matches } from "./env.ts";

type Program = (ctx: Record<string, unknown>) => unknown;

export interface CelStats {
  evaluated: number;
  transitionSkipped: number;
}

const REASONS: Record<string, string> = {
  FieldValueForbidden: "Forbidden",
  FieldValueRequired: "Required value",
  FieldValueDuplicate: "Duplicate value",
};

const OLD_SELF = /\boldSelf\b/;

/** Parses `.spec.foo['bar'][0]` (a rule's fieldPath, relative to the rule's node) into JSON Pointer segments. */
export function fieldPathToPointer(fieldPath: string): string {
  let out = "";
  const re = /\.([A-Za-z_][A-Za-z0-9_-]*)|\[['"]((?:[^'"\\]|\\.)*)['"]\]|\[(\d+)\]/gy;
  let m: RegExpExecArray | null;
  let last = 0;
  // biome-ignore lint/suspicious/noAssignInExpressions: a sticky-regex tokenizer loop
  while ((m = re.exec(fieldPath)) !== null) {
    const seg = m[1] ?? m[2] ?? m[3] ?? "";
    out += `/${seg.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    last = re.lastIndex;
  }
  return last === fieldPath.length ? out : "";
}

interface RuleInfo {
  readonly transition: boolean;
  readonly pointer: string;
  readonly id: string;
}

export class CelEvaluator {
  private readonly env: Environment;
  private readonly infos = new WeakMap<ValidationRule, RuleInfo>();
  private readonly programs = new Map<string, Program | Error>();
  readonly stats: CelStats = { evaluated: 0, transitionSkipped: 0 };

  constructor(env: Environment = createCelEnvironment()) {
    this.env = env;
  }

  private program(expr: string): Program | Error {
    let p = this.programs.get(expr);
    if (!p) {
      try {
        p = this.env.parse(useRe2Matches(expr)) as unknown as Program;
      } catch (err) {
        p = err as Error;
      }
      this.programs.set(expr, p);
    }
    return p;
  }

  /** Compiles a rule ahead of time; returns the compile error, if any (used to pre-warm a schema's rules). */
  compile(expr: string): Error | undefined {
    const p = this.program(expr);
    return p instanceof Error ? p : undefined;
  }

  private message(rule: ValidationRule, vars: Record<string, unknown>): string {
    if (rule.messageExpression) {
      const p = this.program(rule.messageExpression);
      if (!(p instanceof Error)) {
        try {
          const m = p(vars);
          if (typeof m === "string" && m.trim() !== "" && !m.includes("\n")) return m;
        } catch {
          // the API server falls back to message when messageExpression fails
        }
      }
    }
    return rule.message && rule.message !== "" ? rule.message : `failed rule: ${rule.rule}`;
  }

  /** Runs every rule of every task; `hasOld` decides whether transition rules run or are counted as skipped. */
  evaluate(tasks: readonly CelTask[]): Finding[] {
    const findings: Finding[] = [];
    for (const task of tasks) {
      for (const rule of task.rules) {
        if (typeof rule.rule !== "string") continue;
        let info = this.infos.get(rule);
        if (!info) {
          info = { transition: OLD_SELF.test(rule.rule), pointer: rule.fieldPath ? fieldPathToPointer(rule.fieldPath) : "", id: `cel:${rule.rule}` };
          this.infos.set(rule, info);
        }
        const transition = info.transition;
        if (transition && !task.hasOld) {
          this.stats.transitionSkipped++;
          continue;
        }
        const vars: Record<string, unknown> = transition ? { self: task.self, oldSelf: task.oldSelf } : { self: task.self };
        const path = info.pointer ? `${task.path}${info.pointer}` : task.path;
        const ruleId = info.id;
        const program = this.program(rule.rule);
        this.stats.evaluated++;
        if (program instanceof Error) {
          findings.push({ severity: "error", path, message: `rule compile error: ${program.message.split("\n")[0]}`, rule: ruleId });
          continue;
        }
        let result: unknown;
        try {
          result = program(vars);
        } catch (err) {
          findings.push({ severity: "error", path, message: `Invalid value: "${task.type}": rule evaluation error: ${(err as Error).message.split("\n")[0]}`, rule: ruleId });
          continue;
        }
        if (result === true) continue;
        if (result !== false) {
          findings.push({ severity: "error", path, message: `Invalid value: "${task.type}": rule did not evaluate to a bool`, rule: ruleId });
          continue;
        }
        const text = this.message(rule, vars);
        const reason = rule.reason ? REASONS[rule.reason] : undefined;
        findings.push({ severity: "error", path, message: reason ? `${reason}: ${text}` : `Invalid value: "${task.type}": ${text}`, rule: ruleId });
      }
    }
    return findings;
  }
}
