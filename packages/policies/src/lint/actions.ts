// Actions as iam-data knows them: wildcard expansion, the condition keys and resource ARN templates of each action.
import { type ActionData, actionData, isUniversalGlobalKey, keyPatternMatches, resourceType, serviceActions, serviceExists } from "./iam-data.ts";

/** One action of the data, with its service prefix. */
export interface ResolvedAction {
  readonly service: string;
  readonly data: ActionData;
  /** The policy named this action, rather than a wildcard that expanded to it. */
  readonly literal: boolean;
}

/** What a statement's Action list stands for, once wildcards are expanded against iam-data. */
export interface StatementActions {
  /** `*`: every action of every service. */
  readonly all: boolean;
  readonly actions: readonly ResolvedAction[];
}

/** JSON pointer from path segments. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function wildcardRegex(pattern: string): RegExp {
  return new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`, "i");
}

/** Expands one Action string; a string error says what is wrong with it. */
export function resolveAction(action: string): ResolvedAction[] | "all" | { readonly error: string; readonly code: string } {
  if (action === "*") return "all";
  const colon = action.indexOf(":");
  if (colon <= 0 || colon === action.length - 1) {
    return { code: "MALFORMED_ACTION", error: `'${action}' is not an action; write it as <service>:<Action>, e.g. ec2:RunInstances` };
  }
  const service = action.slice(0, colon).toLowerCase();
  const name = action.slice(colon + 1);
  if (!serviceExists(service)) {
    return { code: "UNKNOWN_SERVICE", error: `'${service}' is not an IAM service prefix; check the spelling (e.g. ec2, iam, ssm)` };
  }
  const actions = serviceActions(service);
  if (/[*?]/.test(name)) {
    const re = wildcardRegex(name);
    const matched = Object.values(actions).filter((a) => re.test(a.name));
    if (matched.length === 0) return { code: "UNKNOWN_ACTION", error: `'${action}' matches no action of ${service}; fix the pattern` };
    return matched.map((data) => ({ service, data, literal: false }));
  }
  const data = actionData(service, name);
  if (!data) return { code: "UNKNOWN_ACTION", error: `'${action}' is not an action of ${service}; check the spelling against the Service Authorization Reference` };
  return [{ service, data, literal: true }];
}

/** Condition keys IAM evaluates for an action: its own keys, its resource rows' keys and those resource types' keys. */
const keysOfAction = new WeakMap<ActionData, readonly string[]>();

export function conditionKeysOfAction(a: ResolvedAction): readonly string[] {
  const cached = keysOfAction.get(a.data);
  if (cached) return cached;
  const rows = a.data.resourceTypes;
  const keys = [
    ...a.data.conditionKeys,
    ...rows.flatMap((r) => r.conditionKeys),
    ...rows.flatMap((r) => resourceType(a.service, r.name)?.conditionKeys ?? []),
  ];
  const unique = [...new Set(keys)];
  keysOfAction.set(a.data, unique);
  return unique;
}

export function keyValidForAction(key: string, a: ResolvedAction): boolean {
  return isUniversalGlobalKey(key) || conditionKeysOfAction(a).some((p) => keyPatternMatches(p, key));
}

/** ARN templates of the resource types an action can act on. */
const templatesOfAction = new WeakMap<ActionData, readonly string[]>();

export function resourceTemplates(a: ResolvedAction): readonly string[] {
  let templates = templatesOfAction.get(a.data);
  if (!templates) {
    templates = a.data.resourceTypes.flatMap((r) => {
      const t = resourceType(a.service, r.name);
      return t ? [t.arn] : [];
    });
    templatesOfAction.set(a.data, templates);
  }
  return templates;
}

