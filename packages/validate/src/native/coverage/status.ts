// How far the native stage ports each Validate* entry point of k8s.io/kubernetes v1.36.5 pkg/apis/*/validation: the
// hand-kept half of the coverage table in the package README (the other half, entry-points.json, is generated from
// the Go sources by test-tools/validation-coverage). coverage.test.ts keeps the two and the README in step.

/** One entry point as test-tools/validation-coverage lists it. */
export interface EntryPoint {
  readonly group: string;
  /** The served kind the function's name starts with ("" for a helper shared by several kinds). */
  readonly kind: string;
  readonly function: string;
  /** Path inside k8s.io/kubernetes@v1.36.5. */
  readonly file: string;
  readonly line: number;
}

export type CoverageStatus = "ported" | "partly" | "out of scope" | "not ported";

export interface Coverage {
  readonly status: CoverageStatus;
  /** What is missing (partly), why it is out of scope, or which module ports it. */
  readonly note: string;
}

const ported = (note: string): Coverage => ({ status: "ported", note });
const partly = (note: string): Coverage => ({ status: "partly", note });
const outOfScope = (note: string): Coverage => ({ status: "out of scope", note });

const POD_SPEC_GAPS =
  "missing: projected serviceAccountToken expiry and paths, recursiveReadOnly, shareProcessNamespace with hostPID, some OS-specific (windows/linux) field rules, pod-level resources against container limits";

const ADMISSION_CEL =
  "CEL compiled in the server's admission environment by cel/admission-compile.ts (cel-js with the Kubernetes libraries declared); errors in cel-go's wording except syntax errors and the errors cel-go reports after the first";

/**
 * Entry points by `group/Function`. One not listed is "not ported", or "out of scope" when its name says it judges an
 * update or a status write (see coverageOf).
 */
export const COVERAGE: Readonly<Record<string, Coverage>> = {
  "apps/ValidateDaemonSet": ported("apps.ts"),
  "apps/ValidateDaemonSetSpec": ported("apps.ts"),
  "apps/ValidateDaemonSetUpdateStrategy": ported("apps.ts"),
  "apps/ValidateDeployment": ported("apps.ts"),
  "apps/ValidateDeploymentSpec": ported("apps.ts"),
  "apps/ValidateDeploymentStrategy": ported("apps.ts"),
  "apps/ValidateReplicaSet": ported("apps.ts"),
  "apps/ValidateReplicaSetSpec": ported("apps.ts"),
  "apps/ValidateStatefulSet": ported("apps.ts"),
  "apps/ValidateStatefulSetName": ported("apps.ts, objectmeta.ts"),
  "apps/ValidateStatefulSetSpec": ported("apps.ts"),
  "apps/ValidatePodTemplateSpecForReplicaSet": ported("apps.ts"),
  "apps/ValidatePodTemplateSpecForStatefulSet": ported("apps.ts"),
  "apps/ValidatePersistentVolumeClaimRetentionPolicy": ported("apps.ts"),
  "apps/ValidatePersistentVolumeClaimRetentionPolicyType": ported("apps.ts"),
  "apps/ValidatePositiveIntOrPercent": ported("values.ts"),
  "apps/ValidateRollingUpdateDaemonSet": ported("apps.ts"),
  "apps/ValidateRollingUpdateDeployment": ported("apps.ts"),
  "apps/ValidateRollback": outOfScope("the deprecated rollback subresource, never a manifest"),
  "apps/ValidateDeploymentStatus": outOfScope("status is written by controllers, dropped on create"),
  "apps/ValidateReplicaSetStatus": outOfScope("status is written by controllers, dropped on create"),
  "apps/ValidateStatefulSetStatus": outOfScope("status is written by controllers, dropped on create"),
  "autoscaling/ValidateHorizontalPodAutoscaler": ported("autoscaling.ts"),
  "autoscaling/ValidateCrossVersionObjectReference": ported("autoscaling.ts"),
  "autoscaling/ValidateAPIVersion": ported("autoscaling.ts"),
  "autoscaling/ValidateScale": outOfScope("the scale subresource, never a manifest"),
  "batch/ValidateJob": ported("batch.ts (the generated selector is checked without the server's UID)"),
  "batch/ValidateJobSpec": ported("batch.ts"),
  "batch/ValidateJobTemplateSpec": ported("batch.ts"),
  "batch/ValidateCronJobCreate": ported("batch.ts, cron.ts, timezone.ts"),
  "core/ValidateObjectMeta": ported("objectmeta.ts"),
  "core/ValidateObjectMetaWithOpts": ported("objectmeta.ts"),
  "core/ValidateTemplateObjectMeta": ported("podspec.ts"),
  "core/ValidateAnnotations": ported("objectmeta.ts"),
  "core/ValidateQualifiedName": ported("names.ts"),
  "core/ValidateDNS1123Label": ported("names.ts"),
  "core/ValidateDNS1123Subdomain": ported("names.ts"),
  "core/ValidateNonnegativeField": ported("values.ts"),
  "core/ValidatePositiveField": ported("values.ts"),
  "core/ValidateNonnegativeQuantity": ported("quantity.ts, resources.ts"),
  "core/ValidatePositiveQuantityValue": ported("quantity.ts, resources.ts"),
  "core/ValidateResourceQuantityValue": ported("resources.ts"),
  "core/ValidateContainerResourceRequirements": ported("resources.ts"),
  "core/ValidateEnv": ported("podspec.ts"),
  "core/ValidateEnvFrom": ported("podspec.ts"),
  "core/ValidateVolumes": partly("podspec.ts; missing: per-plugin fields of most volume sources (nfs, csi driver names), projected serviceAccountToken, downwardAPI item field paths"),
  "core/ValidateVolumeMounts": partly("podspec.ts; missing: recursiveReadOnly"),
  "core/ValidateVolumeDevices": ported("podspec.ts"),
  "core/ValidateSecurityContext": partly("podspec.ts; missing: some OS-specific rules"),
  "core/ValidateTolerations": ported("podspec.ts"),
  "core/ValidatePreferredSchedulingTerms": ported("podspec.ts"),
  "core/ValidateNodeSelector": ported("podspec.ts"),
  "core/ValidateNodeSelectorRequirement": ported("podspec.ts"),
  "core/ValidateNodeSelectorTerm": ported("podspec.ts"),
  "core/ValidateTopologySelectorTerm": ported("storage.ts"),
  "core/ValidatePortNumOrName": ported("podspec.ts"),
  "core/ValidateHostAliases": ported("podspec.ts, ip.ts"),
  "core/ValidateProcMountType": ported("podspec.ts"),
  "core/ValidateSpreadConstraintNotRepeat": ported("podspec.ts"),
  "core/ValidateWhenUnsatisfiable": ported("podspec.ts"),
  "core/ValidateTopologyKey": ported("podspec.ts"),
  "core/ValidatePreemptionPolicy": ported("the enum table (src/schema/enum-values.ts), checked by the schema stage"),
  "core/ValidatePodSpec": partly(`podspec.ts; ${POD_SPEC_GAPS}`),
  "core/ValidatePodCreate": partly("core.ts, podspec.ts; missing: ephemeral containers on create, nodeName with scheduling gates"),
  "core/ValidatePodTemplate": ported("core.ts"),
  "core/ValidatePodTemplateSpec": partly(`podspec.ts; as ValidatePodSpec (${POD_SPEC_GAPS})`),
  "core/ValidatePodTemplateSpecForRC": ported("core.ts"),
  "core/ValidateReplicationController": ported("core.ts"),
  "core/ValidateReplicationControllerSpec": ported("core.ts"),
  "core/ValidateServiceCreate": partly("core.ts, cidr.ts; missing: dual-stack ipFamilyPolicy/ipFamilies combinations"),
  "core/ValidateServiceClusterIPsRelatedFields": partly("core.ts; missing: the dual-stack rules"),
  "core/ValidateConfigMap": ported("core.ts"),
  "core/ValidateSecret": ported("core.ts (a dockercfg/dockerconfigjson syntax error other than a truncated text is worded by JavaScript)"),
  "core/ValidateNamespace": ported("core.ts"),
  "core/ValidateServiceAccount": ported("core.ts"),
  "core/ValidatePersistentVolumeClaim": partly("core.ts, pvc.ts; missing: dataSource against dataSourceRef"),
  "core/ValidatePersistentVolumeClaimSpec": partly("pvc.ts; missing: dataSource against dataSourceRef"),
  "core/ValidatePersistentVolumeClaimTemplate": ported("pvc.ts"),
  "core/ValidatePersistentVolume": partly("core.ts; missing: per-plugin fields of most volume sources"),
  "core/ValidatePersistentVolumeSpec": partly("core.ts; missing: per-plugin fields of most volume sources"),
  "core/ValidateResourceQuota": partly("core.ts; missing: scopes against the resources they allow"),
  "core/ValidateResourceQuotaSpec": partly("core.ts; missing: scopes against the resources they allow"),
  "core/ValidateResourceQuotaResourceName": ported("core.ts"),
  "core/ValidateLimitRange": ported("limitrange.ts"),
  "core/ValidateEndpoints": ported("core.ts"),
  "core/ValidateEndpointsCreate": ported("core.ts"),
  "core/ValidatePodBinding": outOfScope("the binding subresource, written by the scheduler"),
  "core/ValidatePodLogOptions": outOfScope("query options of pods/log, never a manifest"),
  "core/ValidatePodResize": outOfScope("the resize subresource (an update)"),
  "core/ValidateContainerStateTransition": outOfScope("compares status before and after an update"),
  "core/ValidateInitContainerStateTransition": outOfScope("compares status before and after an update"),
  "core/ValidateEphemeralContainerStateTransition": outOfScope("compares status before and after an update"),
  "core/ValidateImmutableField": outOfScope("compares an object with its stored version (update)"),
  "core/ValidateImmutableAnnotation": outOfScope("compares an object with its stored version (update)"),
  "core/ValidateLoadBalancerStatus": outOfScope("status is written by controllers, dropped on create"),
  "core/ValidateResourceQuotaStatus": outOfScope("status is written by controllers, dropped on create"),
  "core/ValidateReplicationControllerStatus": outOfScope("status is written by controllers, dropped on create"),
  "networking/ValidateIngressCreate": ported("networking.ts"),
  "networking/ValidateIngressSpec": ported("networking.ts"),
  "networking/ValidateIngressLoadBalancerStatus": outOfScope("status is written by controllers, dropped on create"),
  "networking/ValidateNetworkPolicy": ported("networking.ts"),
  "networking/ValidateNetworkPolicyName": ported("networking.ts, objectmeta.ts"),
  "networking/ValidateNetworkPolicyPeer": ported("networking.ts"),
  "networking/ValidateNetworkPolicyPort": ported("networking.ts"),
  "networking/ValidateNetworkPolicySpec": ported("networking.ts"),
  "networking/ValidateIPBlock": ported("networking.ts, ip.ts"),
  "policy/ValidatePodDisruptionBudget": ported("policy.ts"),
  "policy/ValidatePodDisruptionBudgetSpec": ported("policy.ts"),
  "rbac/ValidateRole": ported("rbac.ts"),
  "rbac/ValidateClusterRole": ported("rbac.ts"),
  "rbac/ValidateRoleBinding": ported("rbac.ts"),
  "rbac/ValidateClusterRoleBinding": ported("rbac.ts"),
  "rbac/ValidateRoleBindingSubject": ported("rbac.ts"),
  "rbac/ValidatePolicyRule": ported("rbac.ts"),
  "rbac/ValidateRBACName": ported("names.ts, objectmeta.ts"),
  "scheduling/ValidatePriorityClass": ported("scheduling.ts"),
  "storage/ValidateStorageClass": ported("storage.ts"),
  "storage/ValidateCSIDriver": partly("storage.ts; missing: the CSI driver name rule of metadata.name, fields of features off by default"),
  "admissionregistration/ValidateValidatingWebhookConfiguration": ported(`admissionregistration.ts; ${ADMISSION_CEL}`),
  "admissionregistration/ValidateMutatingWebhookConfiguration": ported(`admissionregistration.ts; ${ADMISSION_CEL}`),
  "admissionregistration/ValidateValidatingAdmissionPolicy": ported(`admissionregistration.ts; ${ADMISSION_CEL}`),
  "admissionregistration/ValidateValidatingAdmissionPolicyBinding": ported("admissionregistration.ts (the paramRef authorization the strategy adds needs the requesting user: out of scope)"),
  "admissionregistration/ValidateMutatingAdmissionPolicy": partly(
    `admissionregistration.ts; ${ADMISSION_CEL}; missing: compiling mutations' applyConfiguration and jsonPatch expressions (cel-js cannot parse the Object{...} and JSONPatch{...} constructions they build), so only their presence is checked`,
  ),
  "admissionregistration/ValidateMutatingAdmissionPolicyBinding": ported("admissionregistration.ts"),
  "admissionregistration/ValidateStaticSuffix": outOfScope("runs only with the ManifestBasedAdmissionControlConfig gate, alpha and off by default in 1.36 (off, the server only warns)"),
  "networking/ValidateIngressClass": ported("networking.ts"),
  "node/ValidateRuntimeClass": ported("node.ts"),
  "coordination/ValidateLease": ported("coordination.ts (strategy and preferredHolder are dropped: CoordinatedLeaderElection is off by default)"),
  "coordination/ValidateLeaseSpec": ported("coordination.ts"),
  "authentication/ValidateTokenRequest": outOfScope("a request the server answers (serviceaccounts/token), never stored"),
  "authorization/ValidateSubjectAccessReview": outOfScope("a request the server answers, never stored"),
  "authorization/ValidateSubjectAccessReviewSpec": outOfScope("a request the server answers, never stored"),
  "authorization/ValidateSelfSubjectAccessReview": outOfScope("a request the server answers, never stored"),
  "authorization/ValidateSelfSubjectAccessReviewSpec": outOfScope("a request the server answers, never stored"),
  "authorization/ValidateLocalSubjectAccessReview": outOfScope("a request the server answers, never stored"),
};

/** Update and status entry points: validate judges objects as they are created. */
const UPDATE_ONLY = /(Update|UpdateStatus|StatusUpdate|Updates)$/;

/** The coverage of one entry point: listed in COVERAGE, else out of scope for update/status functions, else not ported. */
export function coverageOf(e: Pick<EntryPoint, "group" | "function">): Coverage {
  const listed = COVERAGE[`${e.group}/${e.function}`];
  if (listed) return listed;
  if (UPDATE_ONLY.test(e.function)) return outOfScope("judges an update or a status write; validate checks objects as created");
  return { status: "not ported", note: "" };
}

/** The README's coverage table (markdown): a summary line per status, then one row per entry point. */
export function coverageTable(entries: readonly EntryPoint[]): string {
  const counts = new Map<CoverageStatus, number>();
  const rows = entries.map((e) => {
    const c = coverageOf(e);
    counts.set(c.status, (counts.get(c.status) ?? 0) + 1);
    const where = `${e.file.replace(/^pkg\/apis\//, "")}:${e.line}`;
    return `| ${e.group} | ${e.kind || "(shared)"} | \`${e.function}\` | ${where} | ${c.status} | ${c.note} |`;
  });
  const order: CoverageStatus[] = ["ported", "partly", "not ported", "out of scope"];
  const summary = order.map((s) => `${s}: ${counts.get(s) ?? 0}`).join(", ");
  return [`${entries.length} entry points (${summary}).`, "", "| group | kind | function | Go file:line | status | note |", "|---|---|---|---|---|---|", ...rows].join("\n");
}
