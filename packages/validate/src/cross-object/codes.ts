// The closed set of cross-object check codes, each with what it means and how to fix it (the `rule` and `hint` of a finding).

export interface CheckCode {
  /** One line: what the check guarantees. */
  readonly title: string;
  /** How to fix a violation, in the overlay's terms. */
  readonly hint: string;
}

export const CHECK_CODES = {
  "hpa-target-missing": {
    title: "an HPA's scaleTargetRef names a workload rendered in the same overlay and namespace",
    hint: "render the target workload in the HPA's namespace, or fix spec.scaleTargetRef (apiVersion, kind, name)",
  },
  "hpa-target-no-request": {
    title: "every container of an HPA target requests the resource a Utilization metric is measured against",
    hint: "set resources.requests (or a limit, which implies the request) for that resource on every container; the HPA cannot compute utilisation without it",
  },
  "hpa-target-sets-replicas": {
    title: "a workload scaled by an HPA leaves spec.replicas unset",
    hint: "remove spec.replicas from the workload (the overlay's workload must not set `replicas` when it has `autoscaling`); otherwise every Argo CD sync resets the HPA's choice",
  },
  "nodeclassref-kind": {
    title: "a NodePool's nodeClassRef points at group karpenter.k8s.aws, kind EC2NodeClass",
    hint: "set spec.template.spec.nodeClassRef to group: karpenter.k8s.aws, kind: EC2NodeClass",
  },
  "nodeclassref-missing": {
    title: "a NodePool's nodeClassRef names an EC2NodeClass rendered in the same overlay",
    hint: "declare the EC2NodeClass in the overlay's nodeClasses, or point the NodePool's nodeClass at one that exists",
  },
  "nodeclass-role-mismatch": {
    title: "an EC2NodeClass's role is the node role that the IAM documents define (the role trusting the EC2 service)",
    hint: "leave the EC2NodeClass `role` at its default (the overlay's node role) or render the IAM role it names",
  },
  "discovery-tag-mismatch": {
    title: "karpenter.sh/discovery selector values equal the cluster name",
    hint: "use the cluster name as the karpenter.sh/discovery value (the bootstrap tags subnets and security groups with it)",
  },
  "cluster-name-mismatch": {
    title: "the Karpenter chart's settings.clusterName equals the overlay's cluster name",
    hint: "set settings.clusterName in the Karpenter Application's helm values to the cluster name",
  },
  "service-account-mismatch": {
    title: "the controller service account (chart namespace and serviceAccount.name) is the subject the IRSA trust policy allows",
    hint: "make the controller role's trust condition `<oidc>:sub` equal system:serviceaccount:<Application destination namespace>:<serviceAccount.name>",
  },
  "irsa-role-mismatch": {
    title: "the controller service account's eks.amazonaws.com/role-arn annotation names the controller role of the IAM documents",
    hint: "set serviceAccount.annotations.eks.amazonaws.com/role-arn in the Karpenter chart values to the controller role ARN from rendered/iam/index.json",
  },
  "passrole-not-node-role": {
    title: "the controller's iam:PassRole statement is scoped to the node role",
    hint: "set the Resource of the iam:PassRole statement to the node role ARN (never `*` or another role)",
  },
  "karpenter-unsupported-kubernetes": {
    title: "the Karpenter version is supported on the overlay's Kubernetes version (Karpenter compatibility matrix)",
    hint: "raise the Karpenter chart version (overlay karpenter.version) to at least the minimum listed for this Kubernetes version, or keep the cluster on an older Kubernetes version",
  },
  "helm-values-unknown-key": {
    title: "every key of the Karpenter Application's helm values exists in the values.yaml of the chart version it installs",
    hint: "use the chart's key (see the closest one named in the finding) or remove the value; Helm ignores keys the chart does not read",
  },
  "deprecated-api": {
    title: "no object uses an API version or value that Karpenter v1 or Kubernetes removed",
    hint: "migrate the object to the current API (karpenter.sh/v1, karpenter.k8s.aws/v1, consolidationPolicy WhenEmptyOrUnderutilized)",
  },
} as const satisfies Record<string, CheckCode>;

export type CheckCodeName = keyof typeof CHECK_CODES;
