// Karpenter checks: nodeClassRef resolution, the EC2NodeClass role and discovery tags, deprecated Karpenter and Kubernetes APIs.
import type { CrossObjectFinding, ParsedResource } from "../types.ts";
import type { IamFacts } from "./overlay.ts";
import { arr, describe, dig, finding, groupOf, isObject, pointer, str } from "./util.ts";

export const DISCOVERY_TAG = "karpenter.sh/discovery";
const NODE_CLASS_GROUP = "karpenter.k8s.aws";
const NODE_CLASS_KIND = "EC2NodeClass";

/**
 * `partial`: the files are not a whole overlay (loose files given on the command line): a missing EC2NodeClass
 * is handed to `notChecked` (the run may not hold it), and another node class kind is only a warning (a loose
 * NodePool may be written for another cloud provider).
 */
export function nodeClassRefChecks(resources: readonly ParsedResource[], partial = false, notChecked?: (what: string) => void): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  const nodeClasses = new Set(
    resources.filter((r) => r.kind === NODE_CLASS_KIND && groupOf(r.apiVersion) === NODE_CLASS_GROUP).map((r) => r.name),
  );
  for (const pool of resources) {
    if (pool.kind !== "NodePool" || groupOf(pool.apiVersion) !== "karpenter.sh") continue;
    const ref = dig(pool.object, "spec", "template", "spec", "nodeClassRef");
    if (!isObject(ref)) continue; // required by the schema; reported there
    const base = "/spec/template/spec/nodeClassRef";
    const group = str(ref.group);
    const kind = str(ref.kind);
    const name = str(ref.name);
    if (group !== NODE_CLASS_GROUP || kind !== NODE_CLASS_KIND) {
      out.push(
        finding(
          pool,
          "nodeclassref-kind",
          group !== NODE_CLASS_GROUP ? `${base}/group` : `${base}/kind`,
          `${describe(pool)} refers to ${kind ?? "(no kind)"} in group '${group ?? ""}'; on AWS the node class is ${NODE_CLASS_KIND} in group '${NODE_CLASS_GROUP}'`,
          partial ? "warning" : "error",
        ),
      );
      continue;
    }
    if (name && !nodeClasses.has(name) && partial) {
      notChecked?.(`${describe(pool)} -> ${NODE_CLASS_KIND} ${name}`);
    } else if (name && !nodeClasses.has(name)) {
      const known = [...nodeClasses].sort();
      out.push(
        finding(
          pool,
          "nodeclassref-missing",
          `${base}/name`,
          `${describe(pool)} refers to EC2NodeClass '${name}', which is not rendered in this overlay (rendered: ${known.length ? known.join(", ") : "none"})`,
        ),
      );
    }
  }
  return out;
}

export function nodeClassRoleChecks(resources: readonly ParsedResource[], iam: IamFacts): CrossObjectFinding[] {
  if (iam.roles.length === 0) return []; // no IAM documents in this run: nothing to compare with
  const out: CrossObjectFinding[] = [];
  for (const nc of resources) {
    if (nc.kind !== NODE_CLASS_KIND || groupOf(nc.apiVersion) !== NODE_CLASS_GROUP) continue;
    const role = str(dig(nc.object, "spec", "role"));
    if (role === undefined) continue; // instanceProfile is used instead; its role is outside the rendered documents
    if (iam.nodeRoles.some((r) => r.name === role || r.arn === role || (role.startsWith("arn:") && role.endsWith(`/${r.name}`)))) continue;
    // the index(es) that define the roles named (several when loose files from different folders are checked together)
    const where = [...new Set((iam.nodeRoles.length > 0 ? iam.nodeRoles : iam.roles).map((r) => r.source.file))].join(", ");
    const message =
      iam.nodeRoles.length === 0
        ? `${describe(nc)} uses role '${role}', but no role in ${where} trusts the EC2 service principal (ec2.amazonaws.com), so there is no node role to match`
        : `${describe(nc)} uses role '${role}', but the node role defined in ${where} (the role trusting the EC2 service) is ${[...new Set(iam.nodeRoles.map((r) => `'${r.name}'`))].join(", ")}`;
    out.push(finding(nc, "nodeclass-role-mismatch", "/spec/role", message));
  }
  return out;
}

export function discoveryTagChecks(resources: readonly ParsedResource[], clusterName: string): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  for (const nc of resources) {
    if (nc.kind !== NODE_CLASS_KIND || groupOf(nc.apiVersion) !== NODE_CLASS_GROUP) continue;
    for (const field of ["subnetSelectorTerms", "securityGroupSelectorTerms"] as const) {
      arr(dig(nc.object, "spec", field)).forEach((term, i) => {
        const value = dig(term, "tags", DISCOVERY_TAG);
        if (value === undefined || value === clusterName) return;
        out.push(
          finding(
            nc,
            "discovery-tag-mismatch",
            pointer("spec", field, i, "tags", DISCOVERY_TAG),
            `${describe(nc)} selects ${field === "subnetSelectorTerms" ? "subnets" : "security groups"} tagged ${DISCOVERY_TAG}=${JSON.stringify(value)}, but the cluster is '${clusterName}'`,
          ),
        );
      });
    }
  }
  return out;
}

/** API versions that no longer exist, with what replaced them. */
const REMOVED_API_VERSIONS: Readonly<Record<string, { readonly replacement: string; readonly removed: string }>> = {
  "karpenter.sh/v1beta1": { replacement: "karpenter.sh/v1", removed: "Karpenter 1.1" },
  "karpenter.sh/v1alpha5": { replacement: "karpenter.sh/v1 (Provisioner became NodePool)", removed: "Karpenter 0.33" },
  "karpenter.k8s.aws/v1beta1": { replacement: "karpenter.k8s.aws/v1", removed: "Karpenter 1.1" },
  "karpenter.k8s.aws/v1alpha1": { replacement: "karpenter.k8s.aws/v1 (AWSNodeTemplate became EC2NodeClass)", removed: "Karpenter 0.33" },
  "autoscaling/v2beta1": { replacement: "autoscaling/v2", removed: "Kubernetes 1.25" },
  "autoscaling/v2beta2": { replacement: "autoscaling/v2", removed: "Kubernetes 1.26" },
  "policy/v1beta1": { replacement: "policy/v1", removed: "Kubernetes 1.25" },
  "batch/v1beta1": { replacement: "batch/v1", removed: "Kubernetes 1.25" },
  "extensions/v1beta1": { replacement: "apps/v1 or networking.k8s.io/v1", removed: "Kubernetes 1.22" },
  "apps/v1beta1": { replacement: "apps/v1", removed: "Kubernetes 1.16" },
  "apps/v1beta2": { replacement: "apps/v1", removed: "Kubernetes 1.16" },
  "networking.k8s.io/v1beta1": { replacement: "networking.k8s.io/v1", removed: "Kubernetes 1.22" },
};

/** Whether deprecatedApiChecks reports `apiVersion` whatever the object holds (the same lookup as there, inherited keys included). */
export const isRemovedApiVersion = (apiVersion: string): boolean => Boolean(REMOVED_API_VERSIONS[apiVersion]);

export function deprecatedApiChecks(resources: readonly ParsedResource[]): CrossObjectFinding[] {
  const out: CrossObjectFinding[] = [];
  for (const r of resources) {
    const removed = REMOVED_API_VERSIONS[r.apiVersion];
    if (removed) {
      out.push(
        finding(
          r,
          "deprecated-api",
          "/apiVersion",
          `${describe(r)} uses the deprecated API ${r.apiVersion}, removed in ${removed.removed}; use ${removed.replacement}`,
        ),
      );
    }
    if (r.kind === "NodePool" && groupOf(r.apiVersion) === "karpenter.sh" && dig(r.object, "spec", "disruption", "consolidationPolicy") === "WhenUnderutilized") {
      out.push(
        finding(
          r,
          "deprecated-api",
          "/spec/disruption/consolidationPolicy",
          `${describe(r)} uses consolidationPolicy WhenUnderutilized, deprecated with karpenter.sh/v1beta1; karpenter.sh/v1 calls it WhenEmptyOrUnderutilized`,
        ),
      );
    }
  }
  return out;
}
