// The closed set of cross-object check codes, each with what it means and how to fix it (the `rule` and `hint` of a finding).

export interface CheckCode {
  /** One line: what the check guarantees. */
  readonly title: string;
  /** How to fix a violation, in the overlay's terms. */
  readonly hint: string;
  /**
   * The API server accepts every object these checks flag, so a violation is an error only when it guarantees a
   * failure at sync or at run time (`failure` says which); an opinion is a warning (`--strict` makes it an error).
   */
  readonly severity: "error" | "warning";
  /** What goes wrong, and when: why the severity is what it is (listed in the README). */
  readonly failure: string;
}

export const CHECK_CODES = {
  "hpa-target-missing": {
    title: "an HPA's scaleTargetRef names a workload rendered in the same overlay and namespace",
    hint: "render the target workload in the HPA's namespace, or fix spec.scaleTargetRef (apiVersion, kind, name)",
    severity: "error",
    failure: "run time: the HPA finds nothing to scale (FailedGetScale) and never scales. Only in an overlay: loose files may leave the target out, and the run says once what it could not check",
  },
  "hpa-target-no-request": {
    title: "every container of an HPA target requests the resource a Utilization metric is measured against",
    hint: "set resources.requests (or a limit, which implies the request) for that resource on every container; the HPA cannot compute utilisation without it",
    severity: "warning",
    failure: "none guaranteed: the HPA cannot compute utilisation without a request, but a LimitRange of the namespace may default one",
  },
  "hpa-target-sets-replicas": {
    title: "a workload scaled by an HPA leaves spec.replicas unset",
    hint: "remove spec.replicas from the workload (the overlay's workload must not set `replicas` when it has `autoscaling`); otherwise every Argo CD sync resets the HPA's choice",
    severity: "warning",
    failure: "none: sync and scaling work; each Argo CD sync resets the HPA's replica count until the HPA scales again",
  },
  "nodeclassref-kind": {
    title: "a NodePool's nodeClassRef points at group karpenter.k8s.aws, kind EC2NodeClass",
    hint: "set spec.template.spec.nodeClassRef to group: karpenter.k8s.aws, kind: EC2NodeClass",
    severity: "error",
    failure: "run time: Karpenter on AWS ignores a NodePool whose node class is not an EC2NodeClass, so it never launches nodes. Only in an overlay (an AWS cluster); a warning for loose files, which may be written for another provider",
  },
  "nodeclassref-missing": {
    title: "a NodePool's nodeClassRef names an EC2NodeClass rendered in the same overlay",
    hint: "declare the EC2NodeClass in the overlay's nodeClasses, or point the NodePool's nodeClass at one that exists",
    severity: "error",
    failure: "run time: the NodePool never becomes Ready and launches no nodes. Only in an overlay; loose files get a note",
  },
  "nodeclass-role-mismatch": {
    title: "an EC2NodeClass's role is the node role that the IAM documents define (the role trusting the EC2 service)",
    hint: "leave the EC2NodeClass `role` at its default (the overlay's node role) or render the IAM role it names",
    severity: "error",
    failure: "run time: nodes get a role that is not the node role the cluster admits, and never join",
  },
  "discovery-tag-mismatch": {
    title: "karpenter.sh/discovery selector values equal the cluster name",
    hint: "use the cluster name as the karpenter.sh/discovery value (the bootstrap tags subnets and security groups with it)",
    severity: "error",
    failure: "run time: no subnet or security group carries that tag, so the EC2NodeClass never becomes Ready",
  },
  "cluster-name-mismatch": {
    title: "the Karpenter chart's settings.clusterName equals the overlay's cluster name",
    hint: "set settings.clusterName in the Karpenter Application's helm values to the cluster name",
    severity: "error",
    failure: "run time: the Karpenter controller does not start, or manages the wrong cluster",
  },
  "service-account-mismatch": {
    title: "the controller service account (chart namespace and serviceAccount.name) is the subject the IRSA trust policy allows",
    hint: "make the controller role's trust condition `<oidc>:sub` equal system:serviceaccount:<Application destination namespace>:<serviceAccount.name>",
    severity: "error",
    failure: "run time: STS refuses the controller's AssumeRoleWithWebIdentity, so Karpenter has no AWS credentials",
  },
  "irsa-role-mismatch": {
    title: "the controller service account's eks.amazonaws.com/role-arn annotation names the controller role of the IAM documents",
    hint: "set serviceAccount.annotations.eks.amazonaws.com/role-arn in the Karpenter chart values to the controller role ARN from rendered/iam/index.json",
    severity: "error",
    failure: "run time: the controller runs with another role than the one its policies are attached to",
  },
  "passrole-not-node-role": {
    title: "the controller's iam:PassRole statement is scoped to the node role",
    hint: "set the Resource of the iam:PassRole statement to the node role ARN (never `*` or another role)",
    severity: "error",
    failure: "run time when no statement passes the node role (launches fail with AccessDenied); a warning when the node role is passed and other roles are too (too broad, not broken)",
  },
  "karpenter-unsupported-kubernetes": {
    title: "the Karpenter version is supported on the overlay's Kubernetes version (Karpenter compatibility matrix)",
    hint: "raise the Karpenter chart version (overlay karpenter.version) to at least the minimum listed for this Kubernetes version, or keep the cluster on an older Kubernetes version",
    severity: "error",
    failure: "run time: that Karpenter release does not support the Kubernetes version (Karpenter compatibility matrix); a warning when the version is not in the table",
  },
  "helm-values-unknown-key": {
    title: "every key of the Karpenter Application's helm values exists in the values.yaml of the chart version it installs",
    hint: "use the chart's key (see the closest one named in the finding) or remove the value; Helm ignores keys the chart does not read",
    severity: "warning",
    failure: "none: Helm ignores a key the chart does not read, so sync succeeds and the value has no effect",
  },
  "deprecated-api": {
    title: "no object uses an API version or value that Karpenter v1 or Kubernetes removed",
    hint: "migrate the object to the current API (karpenter.sh/v1, karpenter.k8s.aws/v1, consolidationPolicy WhenEmptyOrUnderutilized)",
    severity: "error",
    failure: "sync: the API server no longer serves that version (or value), so the apply fails",
  },
} as const satisfies Record<string, CheckCode>;

export type CheckCodeName = keyof typeof CHECK_CODES;

/** The README's table of check levels (packages/validate/README.md, between the cross-object-levels markers). */
export function checkLevelsTable(): string {
  const rows = Object.entries(CHECK_CODES).map(([code, c]) => `| \`${code}\` | ${c.severity} | ${c.failure} |`);
  return ["| check | level | what fails, and when |", "|---|---|---|", ...rows].join("\n");
}
