// Evaluating collected x-kubernetes-validations rules the way the API server reports them.
import type { ASTNode, Environment } from "@marcbachmann/cel-js";
import type { SchemaNode } from "../schema/model.ts";
import { type CostProblem, checkSchemaCosts, PER_CALL_LIMIT, type RuleCost, runtimeCost } from "./cost-check.ts";
import { RUNTIME_COST_BUDGET } from "./cost.ts";
import type { CelTask, ValidationRule } from "../schema/walk.ts";
import type { Finding } from "../types.ts";
import { createCelEnvironment, useRe2Matches } from "./env.ts";
import { readableCel } from "./readable.ts";

type Program = (ctx: Record<string, unknown>) => unknown;

export interface CelStats {
  evaluated: number;
  transitionSkipped: number;
}

const REASONS: Record<string, string> = {
  FieldValueForbidden: "Forbidden",
  FieldValueRequired: "Required value",
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
  /** Outcomes by memo key of `self` (this rule object only: its message and reason are part of the outcome). */
  readonly memo: Map<string, Outcome>;
  /** Run-time cost estimates by the same memo key (the estimate, like the result, depends on `self` alone). */
  readonly costMemo: Map<string, number>;
  /** Memo lookups that found an outcome, and those that did not (see MEMO_TRIAL). */
  hits: number;
  misses: number;
  /** The rule's values have not recurred: its memo is no longer kept or asked (nor the memo key made for it). */
  memoOff: boolean;
}

type Outcome = { readonly kind: "true" | "not-bool" } | { readonly kind: "false" | "error" | "compile"; readonly text: string };
const TRUE: Outcome = { kind: "true" };
const NOT_BOOL: Outcome = { kind: "not-bool" };
/** Memoised results per rule; the memo starts over when full. */
const MEMO_LIMIT = 5_000;
/**
 * Characters of memo keys kept over all rules; past it every memo starts over. Keys of whole objects (up to
 * MAX_KEY_LENGTH) that never recur would otherwise fill 5,000 entries of every rule: tens of megabytes
 * held for nothing on a large run (issue 11's 50,000 objects).
 */
const MEMO_KEY_BUDGET = 4 * 1024 * 1024;

/**
 * Lookups after which a rule whose values seldom recur (under one hit in MEMO_MIN_HIT_RATIO lookups) stops
 * being memoised. A rule on a whole spec sees a different value in every object (names, weights): making
 * its key (the value's JSON) cost more than running it. The outcomes are the same either way.
 */
const MEMO_TRIAL = 256;
const MEMO_MIN_HIT_RATIO = 8;
/**
 * MEMO_TRIAL for a rule whose `self` is an object or a list (its key is the value's JSON): such keys cost a
 * JSON.stringify to make and a map entry of their length to keep, and whole values recur from the first objects on
 * when they recur at all (a NodePool's requirement terms, a selector). crd-heavy 5,000 (40 CRDs of one rule on
 * their spec each, ~124 objects a rule), 21 interleaved rounds: 0.287 -> 0.278 s; block 5,000 unchanged.
 */
const MEMO_TRIAL_OBJECTS = 16;

/** Longest JSON text used as a memo key; larger values are evaluated every time. */
const MAX_KEY_LENGTH = 2048;

/** The memo key of a task's value: scalars by type and text, objects and lists by their JSON (when `objects`). */
function memoKey(task: CelTask, objects: boolean): string | undefined {
  const v = task.value;
  if (v === null || typeof v !== "object") return `${typeof v}\u0000${Object.is(v, -0) ? "-0" : String(v)}`;
  if (!objects) return undefined;
  const json = JSON.stringify(v);
  return json.length <= MAX_KEY_LENGTH ? `json\u0000${json}` : undefined;
}

/**
 * Milliseconds on the monotonic clock. Not `performance.now()`: its first use loads node:perf_hooks, ~3 ms of every
 * run's start-up.
 */
const clockMs = (): number => Number(process.hrtime.bigint()) / 1e6;

export class CelEvaluator {
  /** Made on first use (~8 ms): a run whose kinds have no rules never needs it. */
  private envMade: Environment | undefined;
  private readonly infos = new WeakMap<ValidationRule, RuleInfo>();
  private readonly programs = new Map<string, Program | Error>();
  /** Estimated costs of the rules of every schema checked with checkCosts (API server cost limits). */
  private readonly costs = new WeakMap<ValidationRule, RuleCost>();
  private readonly costChecked = new WeakMap<SchemaNode, CostProblem[]>();
  readonly stats: CelStats = { evaluated: 0, transitionSkipped: 0 };
  /**
   * Wall-time guard per object, behind the cost checks (whose estimates may miss a slow library call): once one
   * object's rules have run this long, its remaining rules are reported as not run. A rule already running is not
   * interrupted (cel-js evaluates synchronously).
   */
  timeLimitMs = 5_000;

  constructor(env?: Environment) {
    this.envMade = env;
  }

  private get env(): Environment {
    this.envMade ??= createCelEnvironment();
    return this.envMade;
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

  /**
   * Estimates the cost of every rule of a CRD schema once, as the API server does when the CRD is created; returns
   * what it would refuse the CRD for. Rules over the limits are then reported instead of run, and the others are
   * checked against the per-call limit and the per-object budget before they run.
   */
  checkCosts(root: SchemaNode, base: string): CostProblem[] {
    let problems = this.costChecked.get(root);
    if (!problems) {
      const parse = (expr: string) => {
        const p = this.program(expr);
        return p instanceof Error ? undefined : (p as unknown as { ast: ASTNode }).ast;
      };
      problems = checkSchemaCosts(root, base, parse, this.costs);
      this.costChecked.set(root, problems);
    }
    return problems;
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

  /**
   * A rule's result for these variables. Results of non-transition rules are memoised by the value of
   * `self` (scalars, and small objects and lists by their JSON): the same requirements, label keys and
   * selector terms recur object after object, and a rule is a pure function of `self` (its CEL view is
   * derived from the value by the rule's own schema node).
   */
  private memoKeyChars = 0;
  private readonly memos = new Set<Map<string, Outcome>>();
  private readonly costMemos = new Set<Map<string, number>>();

  private outcome(rule: ValidationRule, vars: Record<string, unknown>, key: string | undefined, info: RuleInfo): Outcome {
    const memo = info.memo;
    if (key !== undefined) {
      const hit = memo.get(key);
      if (hit) {
        info.hits++;
        return hit;
      }
      if (++info.misses >= (key.startsWith("json\u0000") ? MEMO_TRIAL_OBJECTS : MEMO_TRIAL) && info.hits * MEMO_MIN_HIT_RATIO < info.misses) {
        info.memoOff = true;
        memo.clear();
        info.costMemo.clear();
        return this.run(rule, vars);
      }
    }
    const result = this.run(rule, vars);
    if (key !== undefined) {
      if (memo.size >= MEMO_LIMIT) memo.clear();
      if (this.memoKeyChars + key.length > MEMO_KEY_BUDGET) {
        for (const m of this.memos) m.clear();
        for (const m of this.costMemos) m.clear();
        this.memoKeyChars = 0;
      }
      this.memos.add(memo);
      this.memoKeyChars += key.length;
      memo.set(key, result);
    }
    return result;
  }

  private run(rule: ValidationRule, vars: Record<string, unknown>): Outcome {
    const program = this.program(rule.rule);
    if (program instanceof Error) return { kind: "compile", text: program.message.split("\n")[0] ?? "" };
    let result: unknown;
    try {
      result = program(vars);
    } catch (err) {
      return { kind: "error", text: ((err as Error).message.split("\n")[0] ?? "").replace(/^No such key/, "no such key") };
    }
    if (result === true) return TRUE;
    if (result !== false) return NOT_BOOL;
    return { kind: "false", text: this.message(rule, vars) };
  }

  /**
   * Runs every rule of every task; `hasOld` decides whether transition rules run or are counted as skipped.
   * `memoObjects: false` (the walk saw a -0, which JSON writes as 0) memoises scalar values only.
   */
  evaluate(tasks: readonly CelTask[], memoObjects = true): Finding[] {
    const findings: Finding[] = [];
    // the run-time cost of this object's rules so far (API server: RuntimeCELCostBudget per object)
    let spent = 0;
    const started = clockMs();
    let clockChecks = 0;
    for (const task of tasks) {
      // the memo key of this task's value, computed once for all its rules (null: not memoisable)
      let key: string | null | undefined;
      for (const rule of task.rules) {
        if (typeof rule.rule !== "string") continue;
        let info = this.infos.get(rule);
        if (!info) {
          info = { transition: OLD_SELF.test(rule.rule), pointer: rule.fieldPath ? fieldPathToPointer(rule.fieldPath) : "", id: `cel:${rule.rule}`, memo: new Map(), costMemo: new Map(), hits: 0, misses: 0, memoOff: false };
          this.infos.set(rule, info);
        }
        const transition = info.transition;
        // optionalOldSelf rules need oldSelf as an optional, which cel-js cannot yet evaluate faithfully: counted as skipped
        if (transition && (!task.hasOld || rule.optionalOldSelf === true)) {
          this.stats.transitionSkipped++;
          continue;
        }
        // the clock is read every eighth rule (reading it for each cost as much as a cheap rule)
        if ((clockChecks++ & 7) === 0 && clockMs() - started > this.timeLimitMs) {
          findings.push({ severity: "error", path: task.path, message: `Invalid value: "${task.type}": CEL evaluation of this object took over ${this.timeLimitMs / 1000} s, no further validation rules will be run`, rule: info.id });
          return findings;
        }
        const cost = this.costs.get(rule);
        if (cost) {
          if (cost.refused) {
            findings.push({ severity: "error", path: task.path, message: `Forbidden: rule not run: ${cost.refused}`, rule: info.id });
            continue;
          }
          const memoised = !transition && !info.memoOff;
          if (key === undefined && memoised) key = memoKey(task, memoObjects) ?? null;
          // estimated once per distinct value: most values recur object after object
          let c = memoised && key ? info.costMemo.get(key) : undefined;
          if (c === undefined) {
            c = runtimeCost(cost, task.value, transition ? task.oldSelf : undefined);
            if (memoised && key) {
              if (info.costMemo.size >= MEMO_LIMIT) info.costMemo.clear();
              this.costMemos.add(info.costMemo);
              info.costMemo.set(key, c);
            }
          }
          if (c > PER_CALL_LIMIT) {
            // the rule's message, or the rule, as the server names it (worked out only for a finding)
            const what = rule.message?.trim() ? rule.message.trim() : rule.rule.trim();
            findings.push({ severity: "error", path: task.path, message: `Invalid value: "${task.type}": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${what}`, rule: info.id });
            return findings;
          }
          spent += c;
          if (spent > RUNTIME_COST_BUDGET) {
            findings.push({ severity: "error", path: task.path, message: `Invalid value: "${task.type}": validation failed due to running out of cost budget, no further validation rules will be run`, rule: info.id });
            return findings;
          }
        }
        const vars: Record<string, unknown> = transition ? { self: task.self, oldSelf: task.oldSelf } : { self: task.self };
        const path = info.pointer ? `${task.path}${info.pointer}` : task.path;
        const ruleId = info.id;
        this.stats.evaluated++;
        const memoised = !transition && !info.memoOff;
        if (key === undefined && memoised) key = memoKey(task, memoObjects) ?? null;
        const outcome = this.outcome(rule, vars, memoised ? (key ?? undefined) : undefined, info);
        switch (outcome.kind) {
          case "true":
            break;
          case "compile":
            findings.push({ severity: "error", path, message: `rule compile error: ${outcome.text}`, rule: ruleId });
            break;
          case "error": {
            // worded as the API server's "<error> evaluating rule: <message or rule>", at the rule's own node
            const what = rule.message?.trim() ? rule.message.trim() : rule.rule.trim();
            findings.push({ severity: "error", path: task.path, message: `Invalid value: "${task.type}": ${outcome.text} evaluating rule: ${what}`, rule: ruleId });
            break;
          }
          case "not-bool":
            findings.push({ severity: "error", path, message: `Invalid value: "${task.type}": rule did not evaluate to a bool`, rule: ruleId });
            break;
          case "false": {
            const reason = rule.reason ? REASONS[rule.reason] : undefined;
            // as field.Forbidden / Required / Duplicate / Invalid print them (Duplicate shows the value's type, not the message)
            const message =
              rule.reason === "FieldValueDuplicate"
                ? `Duplicate value: "${task.type}"`
                : reason
                  ? `${reason}: ${outcome.text}`
                  : `Invalid value: "${task.type}": ${outcome.text}`;
            // the offending value where the server prints its type, and a hint for restricted label domains
            const readable = readableCel(message, task.self, info.pointer, rule.rule, task.type);
            findings.push({ severity: "error", path, message: readable.message, rule: ruleId, ...(readable.hint ? { hint: readable.hint } : {}) });
            break;
          }
        }
      }
    }
    return findings;
  }
}
