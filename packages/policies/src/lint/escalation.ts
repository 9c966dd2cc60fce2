// Cross-statement check: an action gated only on resource tags that the same principal may set on any resource (tag, then act).
import { arnMatchesTemplate } from "./arn.ts";
import { type ResolvedAction, resourceTemplates, type StatementActions } from "./actions.ts";

export interface Escalation {
  /** Index of the gated statement. */
  readonly statement: number;
  /** Indexes of the statements that let the principal set the tags. */
  readonly setters: readonly number[];
  readonly path: string;
  readonly message: string;
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function conditionEntries(st: Json): { operator: string; key: string }[] {
  if (!isObject(st.Condition)) return [];
  return Object.entries(st.Condition).flatMap(([operator, block]) => (isObject(block) ? Object.keys(block).map((key) => ({ operator, key })) : []));
}

const RESOURCE_TAG = /^(?:aws|ec2):ResourceTag\/(.+)$/i;

function resources(st: Json): string[] {
  const r = st.Resource;
  return (Array.isArray(r) ? r : r === undefined ? [] : [r]).filter((x): x is string => typeof x === "string");
}

function grants(actions: StatementActions | undefined, service: string, name: string): boolean {
  return !!actions && (actions.all || actions.actions.some((a) => a.service === service && a.data.name === name));
}

/** Whether a CreateTags statement lets the principal put `tag` on an existing resource the gated action targets. */
function canSetTag(st: Json, tag: string, gated: ResolvedAction): boolean {
  const templates = resourceTemplates(gated);
  const res = resources(st);
  if (!res.some((r) => r === "*" || templates.some((t) => arnMatchesTemplate(r, t)))) return false;
  return !conditionEntries(st).some(({ key }) => {
    const k = key.toLowerCase();
    // Creation-only tagging, a tag-key allow list, a required value for this tag, or a resource that must already be tagged.
    return k === "ec2:createaction" || k === "aws:tagkeys" || k === `aws:requesttag/${tag.toLowerCase()}` || RESOURCE_TAG.test(key);
  });
}

/**
 * Finds Allow statements whose only conditions are resource tags, on an EC2 action, where another Allow statement lets
 * the same principal set every one of those tags with ec2:CreateTags on any resource of that action.
 */
export function findTagThenActEscalations(statements: readonly unknown[], resolved: readonly (StatementActions | undefined)[], base: (i: number) => string): Escalation[] {
  const found: Escalation[] = [];
  statements.forEach((st, i) => {
    const actions = resolved[i];
    if (!isObject(st) || st.Effect !== "Allow" || !actions || actions.all) return;
    const entries = conditionEntries(st);
    if (entries.length === 0) return;
    const tags = entries.map(({ key }) => RESOURCE_TAG.exec(key)?.[1]);
    if (tags.some((t) => t === undefined)) return;
    for (const gated of actions.actions) {
      if (gated.service !== "ec2" || gated.data.name === "CreateTags" || gated.data.resourceTypes.length === 0) continue;
      const taggers = statements
        .map((other, j) => ({ other, j }))
        .filter(({ other, j }) => isObject(other) && other.Effect === "Allow" && grants(resolved[j], "ec2", "CreateTags"));
      const setters = (tags as string[]).map((tag) => taggers.find(({ other }) => canSetTag(other as Json, tag, gated)));
      if (setters.some((s) => s === undefined)) continue;
      const setterIndexes = [...new Set(setters.map((s) => s!.j))];
      const by = setterIndexes.map(base).join(", ");
      found.push({
        statement: i,
        setters: setterIndexes,
        path: `${base(i)}/Condition`,
        message:
          `ec2:${gated.data.name} is gated only on resource tag${tags.length > 1 ? "s" : ""} ${(tags as string[]).join(", ")}, which ${by} lets the same principal set with ec2:CreateTags on any resource: ` +
          "it can tag an unrelated resource and then act on it. Allow CreateTags only at creation (ec2:CreateAction) or with a ForAllValues:StringEquals aws:TagKeys list that excludes those keys, " +
          "and gate the action on tags only this cluster's launches carry (kubernetes.io/cluster/<cluster> = owned).",
      });
    }
  });
  return found;
}
