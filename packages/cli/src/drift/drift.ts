// Will a change replace nodes? For every NodePool and EC2NodeClass that differs between two rendered trees: static drift
// (the hashes Karpenter v1.14.1 writes as annotations), dynamic drift (selectors Karpenter resolves against EC2),
// requirement drift, and what does not drift. Pure. After sigs.k8s.io/karpenter@v1.14.1
// pkg/controllers/nodeclaim/disruption/drift.go and aws/karpenter-provider-aws@v1.14.1 pkg/cloudprovider/drift.go.
import { isDeepStrictEqual } from "node:util";
import { parseAllDocuments } from "yaml";
import { type BudgetInput, driftBudgets } from "./budgets.ts";
import { EC2NODECLASS_HASH_ANNOTATION, EC2NODECLASS_HASH_VERSION, ec2NodeClassHash, NODEPOOL_HASH_ANNOTATION, NODEPOOL_HASH_VERSION, nodePoolHash } from "./karpenter-hash.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});

export type DriftVerdict = "drifts" | "drifts-once-resolved" | "may-drift" | "no-drift" | "new" | "removed";

export interface HashChange {
  readonly annotation: string;
  readonly version: string;
  readonly base: string;
  readonly head: string;
}

export interface DriftFinding {
  readonly cluster: string;
  readonly kind: "NodePool" | "EC2NodeClass";
  readonly name: string;
  readonly verdict: DriftVerdict;
  /** The hash annotation before and after (static drift when they differ). */
  readonly hash?: HashChange;
  /** One line per reason, e.g. "AMIDrift: spec.amiSelectorTerms changed (al2023@latest -> al2023@v20250101)". */
  readonly reasons: readonly string[];
  /** Changed fields that never drift (weight, limits, disruption...). */
  readonly noDrift: readonly string[];
  /** NodePools whose NodeClaims this finding replaces (the NodePool itself, or those using the EC2NodeClass). */
  readonly nodePools: readonly string[];
}

export interface NodePoolPace {
  readonly cluster: string;
  readonly nodePool: string;
  /** The budgets that apply to drift, in words. */
  readonly budgets: readonly string[];
  /** NodeClaims of this NodePool (simulated on the base side) at each replica point, and how many may be replaced at once. */
  readonly nodeClaims: readonly { readonly at: string; readonly count: number; readonly atOnce: number }[];
}

export interface DriftReport {
  readonly findings: readonly DriftFinding[];
  /** Pace of replacement per NodePool that drifts. */
  readonly pace: readonly NodePoolPace[];
}

/** NodePools and EC2NodeClasses of a rendered tree, by cluster: `cluster/Kind/name` -> object (CRD defaults applied). */
export function karpenterObjects(files: ReadonlyMap<string, string>): Map<string, Obj> {
  const out = new Map<string, Obj>();
  for (const [path, text] of files) {
    if (!/\.ya?ml$/.test(path) || !/kind:\s*["']?(NodePool|EC2NodeClass)\b/.test(text)) continue;
    const cluster = path.split("/")[1] ?? "";
    for (const doc of parseAllDocuments(text)) {
      const o = obj(doc.toJS());
      const kind = o.kind;
      if ((kind !== "NodePool" && kind !== "EC2NodeClass") || !String(o.apiVersion ?? "").startsWith(kind === "NodePool" ? "karpenter.sh/" : "karpenter.k8s.aws/")) continue;
      const name = String(obj(o.metadata).name ?? "");
      out.set(`${cluster}/${kind}/${name}`, withDefaults(o));
    }
  }
  return out;
}

/**
 * The CRD defaults the API server applies before Karpenter reads the object, for the hashed fields only:
 * NodePool spec.template.spec.expireAfter "720h" (nodepool.go), EC2NodeClass spec.metadataOptions (ec2nodeclass.go).
 */
export function withDefaults(o: Obj): Obj {
  const copy = structuredClone(o);
  if (copy.kind === "NodePool") {
    const spec = obj(obj(obj(copy.spec).template).spec);
    if (obj(copy.spec).template && obj(obj(copy.spec).template).spec && spec.expireAfter === undefined) spec.expireAfter = "720h";
  } else {
    const spec = copy.spec as Obj | undefined;
    if (spec && typeof spec === "object") {
      const defaults = { httpEndpoint: "enabled", httpProtocolIPv6: "disabled", httpPutResponseHopLimit: 1, httpTokens: "required" };
      if (spec.metadataOptions === undefined) spec.metadataOptions = defaults;
      else if (spec.metadataOptions && typeof spec.metadataOptions === "object") spec.metadataOptions = { ...defaults, ...(spec.metadataOptions as Obj) };
    }
  }
  return copy;
}

const changed = (a: unknown, b: unknown) => !isDeepStrictEqual(a, b);
const NO_DRIFT_NODEPOOL: readonly [string, (o: Obj) => unknown][] = [
  ["spec.weight", (o) => obj(o.spec).weight],
  ["spec.limits", (o) => obj(o.spec).limits],
  ["spec.disruption", (o) => obj(o.spec).disruption],
  ["metadata (labels, annotations)", (o) => ({ l: obj(o.metadata).labels, a: obj(o.metadata).annotations })],
];

function aliasText(spec: Obj): string {
  const terms = Array.isArray(spec.amiSelectorTerms) ? spec.amiSelectorTerms : [];
  return terms.map((t) => (obj(t).alias ? String(obj(t).alias) : JSON.stringify(t))).join(", ") || "none";
}

function nodePoolFinding(cluster: string, name: string, base: Obj, head: Obj): DriftFinding {
  const hash: HashChange = { annotation: NODEPOOL_HASH_ANNOTATION, version: NODEPOOL_HASH_VERSION, base: nodePoolHash(base), head: nodePoolHash(head) };
  const reasons: string[] = [];
  const tb = obj(obj(obj(base.spec).template).spec);
  const th = obj(obj(obj(head.spec).template).spec);
  if (hash.base !== hash.head) {
    const fields = ["metadata", "spec.taints", "spec.startupTaints", "spec.nodeClassRef", "spec.terminationGracePeriod", "spec.expireAfter"].filter((f) => {
      const pick = (o: Obj) => (f === "metadata" ? obj(obj(o.spec).template).metadata : obj(obj(obj(o.spec).template).spec)[f.slice(5)]);
      return changed(pick(base), pick(head));
    });
    reasons.push(`NodePoolDrifted: spec.template changed (${fields.map((f) => `template.${f}`).join(", ") || "hashed fields"}): every NodeClaim of the NodePool is replaced`);
  }
  const requirementsChanged = changed(tb.requirements, th.requirements);
  if (requirementsChanged) {
    reasons.push("RequirementsDrifted: spec.template.spec.requirements changed: NodeClaims whose labels no longer meet the new requirements are replaced (requirements are not hashed)");
  }
  const noDrift = NO_DRIFT_NODEPOOL.filter(([, pick]) => changed(pick(base), pick(head))).map(([f]) => f);
  const verdict: DriftVerdict = hash.base !== hash.head ? "drifts" : requirementsChanged ? "may-drift" : "no-drift";
  return { cluster, kind: "NodePool", name, verdict, hash, reasons, noDrift, nodePools: [name] };
}

function nodeClassFinding(cluster: string, name: string, base: Obj, head: Obj, users: readonly string[]): DriftFinding {
  const hash: HashChange = { annotation: EC2NODECLASS_HASH_ANNOTATION, version: EC2NODECLASS_HASH_VERSION, base: ec2NodeClassHash(base), head: ec2NodeClassHash(head) };
  const sb = obj(base.spec);
  const sh = obj(head.spec);
  const reasons: string[] = [];
  if (hash.base !== hash.head) {
    const keys = [...new Set([...Object.keys(sb), ...Object.keys(sh)])].filter((k) => !DYNAMIC.has(k) && k !== "ipPrefixCount" && changed(sb[k], sh[k])).sort();
    reasons.push(`NodeClassDrift: ${keys.map((k) => `spec.${k}`).join(", ") || "the resolved AMI family"} changed (hashed): every NodeClaim using the EC2NodeClass is replaced`);
  }
  const dynamic: string[] = [];
  if (changed(sb.amiSelectorTerms, sh.amiSelectorTerms) || changed(sb.amiFamily, sh.amiFamily)) {
    dynamic.push(`AMIDrift: spec.amiSelectorTerms ${aliasText(sb)} -> ${aliasText(sh)}: drifts once Karpenter resolves the new AMI, for NodeClaims whose AMI is no longer selected`);
  }
  if (changed(sb.subnetSelectorTerms, sh.subnetSelectorTerms)) dynamic.push("SubnetDrift: spec.subnetSelectorTerms changed: drifts once Karpenter resolves the new subnets, for NodeClaims in a subnet no longer selected");
  if (changed(sb.securityGroupSelectorTerms, sh.securityGroupSelectorTerms)) {
    dynamic.push("SecurityGroupDrift: spec.securityGroupSelectorTerms changed: drifts once Karpenter resolves the new security groups, for NodeClaims whose security groups differ");
  }
  if (changed(sb.capacityReservationSelectorTerms, sh.capacityReservationSelectorTerms)) {
    dynamic.push("CapacityReservationDrift: spec.capacityReservationSelectorTerms changed: drifts once Karpenter resolves the reservations, for reserved NodeClaims no longer selected");
  }
  reasons.push(...dynamic);
  const noDrift = changed(sb.ipPrefixCount, sh.ipPrefixCount) ? ["spec.ipPrefixCount (not hashed)"] : [];
  if (changed(obj(base.metadata).annotations, obj(head.metadata).annotations) || changed(obj(base.metadata).labels, obj(head.metadata).labels)) noDrift.push("metadata (labels, annotations)");
  const verdict: DriftVerdict = hash.base !== hash.head ? "drifts" : dynamic.length > 0 ? "drifts-once-resolved" : "no-drift";
  return { cluster, kind: "EC2NodeClass", name, verdict, hash, reasons, noDrift, nodePools: users };
}

const DYNAMIC = new Set(["amiSelectorTerms", "subnetSelectorTerms", "securityGroupSelectorTerms", "capacityReservationSelectorTerms"]);

/** Every NodePool and EC2NodeClass that differs between `base` and `head` (rendered trees: repo path -> YAML). */
export function analyzeDrift(base: ReadonlyMap<string, string>, head: ReadonlyMap<string, string>): DriftFinding[] {
  const b = karpenterObjects(base);
  const h = karpenterObjects(head);
  const findings: DriftFinding[] = [];
  for (const key of [...new Set([...b.keys(), ...h.keys()])].sort()) {
    const [cluster = "", kind, ...rest] = key.split("/");
    const name = rest.join("/");
    const before = b.get(key);
    const after = h.get(key);
    if (before && after && isDeepStrictEqual(before, after)) continue;
    const k = kind as "NodePool" | "EC2NodeClass";
    const users = [...(after ? h : b)]
      .filter(([key2, o]) => key2.startsWith(`${cluster}/NodePool/`) && obj(obj(obj(obj(o.spec).template).spec).nodeClassRef).name === name)
      .map(([, o]) => String(obj(o.metadata).name))
      .sort();
    if (!before || !after) {
      const np = k === "NodePool" ? [name] : users;
      findings.push({
        cluster,
        kind: k,
        name,
        verdict: before ? "removed" : "new",
        reasons: [
          before
            ? k === "NodePool"
              ? "removed: Karpenter deletes its NodeClaims (their nodes drain)"
              : "removed: NodePools that still reference it cannot launch nodes"
            : "new: no existing NodeClaim uses it",
        ],
        noDrift: [],
        nodePools: before ? np : [],
      });
      continue;
    }
    findings.push(k === "NodePool" ? nodePoolFinding(cluster, name, before, after) : nodeClassFinding(cluster, name, before, after, users));
  }
  return findings;
}

/** The budgets of a NodePool (head side, the one that will apply), for the pace of replacement. */
export function nodePoolBudgets(head: ReadonlyMap<string, string>, cluster: string, nodePool: string): readonly BudgetInput[] | undefined {
  const o = karpenterObjects(head).get(`${cluster}/NodePool/${nodePool}`);
  const budgets = obj(obj(o?.spec).disruption).budgets;
  return Array.isArray(budgets) ? (budgets as BudgetInput[]) : undefined;
}

/** NodePools that some finding replaces nodes of, by cluster. */
export function drivingNodePools(findings: readonly DriftFinding[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of findings) {
    // A removed NodePool's NodeClaims are deleted with it (owner references), not disrupted under its budgets.
    if (f.verdict === "no-drift" || f.verdict === "new" || f.verdict === "removed") continue;
    const set = out.get(f.cluster) ?? new Set<string>();
    for (const p of f.nodePools) set.add(p);
    out.set(f.cluster, set);
  }
  return out;
}

/** Budgets in words and NodeClaims replaced at once, for each NodePool that drifts. */
export function paceOf(
  findings: readonly DriftFinding[],
  head: ReadonlyMap<string, string>,
  counts: (cluster: string, nodePool: string) => readonly { at: string; count: number }[],
): NodePoolPace[] {
  const pace: NodePoolPace[] = [];
  for (const [cluster, pools] of drivingNodePools(findings)) {
    for (const nodePool of [...pools].sort()) {
      const budgets = driftBudgets(nodePoolBudgets(head, cluster, nodePool));
      pace.push({
        cluster,
        nodePool,
        budgets: budgets.sentences,
        nodeClaims: counts(cluster, nodePool).map((c) => ({ ...c, atOnce: budgets.allowedAt(c.count) })),
      });
    }
  }
  return pace;
}
