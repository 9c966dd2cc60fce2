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
  "missing: clusterTrustBundle and podCertificate projections (features off by default, dropped on create), the ephemeral containers' own checks (they are refused on create), hostProcess and privileged refused by cluster policy (EKS allows privileged pods)";

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
  "core/ValidateVolumes": partly("volumes.ts; missing: clusterTrustBundle and podCertificate projections (features off by default, dropped on create)"),
  "core/ValidateVolumeMounts": ported("podspec.ts"),
  "core/ValidateVolumeDevices": ported("podspec.ts"),
  "core/ValidateSecurityContext": ported("podspec.ts, pod-security.ts (privileged refused by cluster policy is not checked: EKS allows privileged pods)"),
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
  "core/ValidatePodCreate": ported("core.ts, podspec.ts, pod-security.ts (the pod strategy's AppArmor annotation sync and pod-level resource defaults applied first)"),
  "core/ValidatePodTemplate": ported("core.ts"),
  "core/ValidatePodSpecificAnnotations": ported("podspec.ts"),
  "core/ValidateTolerationsInPodAnnotations": ported("podspec.ts (a JSON syntax error is worded by JavaScript)"),
  "core/ValidateSeccompProfile": ported("pod-security.ts"),
  "core/ValidateSeccompPodAnnotations": ported("pod-security.ts"),
  "core/ValidateAppArmorProfileField": ported("pod-security.ts"),
  "core/ValidateAppArmorProfileFormat": ported("pod-security.ts"),
  "core/ValidateAppArmorPodAnnotations": ported("pod-security.ts"),
  "core/ValidateHostSysctl": ported("podspec.ts"),
  "core/ValidateMatchLabelKeysAndMismatchLabelKeys": partly("podspec.ts; missing: on a Pod, the strategy first merges matchLabelKeys into the selector (mutatePodAffinity, mutateTopologySpreadConstraints)"),
  "core/ValidateMatchLabelKeysInTopologySpread": outOfScope("the pre-1.34 rule, used only when updating a pod that breaks the current one (MatchLabelKeysInPodTopologySpreadSelectorMerge is on)"),
  "core/ValidatePodAffinityTermSelector": ported("podspec.ts, labelselector.ts"),
  "core/ValidateCSIDriverName": ported("volumes.ts (pod csi volumes, PersistentVolume csi sources)"),
  "core/ValidateLocalNonReservedPath": ported("local-path.ts"),
  "core/ValidateDNS1123SubdomainWithUnderScore": ported("names.ts (pod dnsConfig search domains)"),
  "core/ValidateUserAnnotations": outOfScope("used only by podCertificate projections, a feature off by default in 1.36 (dropped on create)"),
  "core/ValidatePodTemplateSpec": partly(`podspec.ts; as ValidatePodSpec (${POD_SPEC_GAPS})`),
  "core/ValidatePodTemplateSpecForRC": ported("core.ts"),
  "core/ValidateReplicationController": ported("core.ts"),
  "core/ValidateReplicationControllerSpec": ported("core.ts"),
  "core/ValidateServiceCreate": ported("core.ts, service-ips.ts (the allocator's family checks assume a single-stack IPv4 cluster), cidr.ts"),
  "core/ValidateServiceClusterIPsRelatedFields": ported("service-ips.ts, run where the REST layer runs it: before validation, after ipFamilyPolicy defaulting"),
  "core/ValidateConfigMap": ported("core.ts"),
  "core/ValidateSecret": ported("core.ts (a dockercfg/dockerconfigjson syntax error other than a truncated text is worded by JavaScript)"),
  "core/ValidateNamespace": ported("core.ts"),
  "core/ValidateServiceAccount": ported("core.ts"),
  "core/ValidatePersistentVolumeClaim": ported("core.ts, pvc.ts (after the claim strategy's data source normalisation)"),
  "core/ValidatePersistentVolumeClaimSpec": ported("pvc.ts"),
  "core/ValidatePersistentVolumeClaimTemplate": ported("pvc.ts"),
  "core/ValidatePersistentVolume": ported("persistentvolume.ts"),
  "core/ValidatePersistentVolumeSpec": ported("persistentvolume.ts (the inline-volume variant is for CSI migration, not manifests)"),
  "core/ValidateResourceQuota": ported("core.ts"),
  "core/ValidateResourceQuotaSpec": ported("core.ts (scopes and the scope selector against the resources they may limit)"),
  "core/ValidateResourceQuotaResourceName": ported("core.ts"),
  "core/ValidateLimitRange": ported("limitrange.ts"),
  "core/ValidateEndpoints": ported("core.ts"),
  "core/ValidateEndpointsCreate": ported("core.ts"),
  "core/ValidateEndpointIP": ported("ip.ts (endpointIpProblems)"),
  "core/ValidateNode": ported("core-node.ts (status may be set on create and is checked; a taints/preferAvoidPods annotation that is not JSON is worded by JavaScript)"),
  "core/ValidateNodeResources": ported("core-node.ts, resources.ts"),
  "core/ValidateNodeSpecificAnnotations": ported("core-node.ts"),
  "core/ValidateTaintsInNodeAnnotations": ported("core-node.ts"),
  "core/ValidateAvoidPodsInNodeAnnotations": ported("core-node.ts"),
  "core/ValidateEndpointsSpecificAnnotations": ported("nothing to port: the function checks nothing in 1.36"),
  "core/ValidateSignerName": ported("certificates.ts"),
  "core/ValidateEventCreate": ported("event.ts (core/v1 and events.k8s.io/v1; a manifest without namespace is taken as 'default')"),
  "discovery/ValidateEndpointSlice": ported("discovery.ts (deprecatedTopology is dropped on create through v1)"),
  "discovery/ValidateEndpointSliceCreate": ported("discovery.ts"),
  "networking/ValidateIPAddress": ported("networking.ts"),
  "networking/ValidateIPAddressName": ported("ip.ts (strictIpProblems), objectmeta.ts"),
  "networking/ValidateServiceCIDR": ported("networking.ts"),
  "certificates/ValidateCertificateSigningRequestCreate": ported("certificates.ts (status is reset on create; Go's ASN.1 parse errors of malformed DER are worded 'x509: malformed certificate request')"),
  "certificates/ValidateCertificateRequestName": ported("objectmeta.ts (any name; the generic check wants a path segment)"),
  "flowcontrol/ValidateFlowSchema": ported("flowcontrol.ts (with the mandatory exempt/catch-all specs)"),
  "flowcontrol/ValidateFlowSchemaSpec": ported("flowcontrol.ts"),
  "flowcontrol/ValidateFlowSchemaPolicyRulesWithSubjects": ported("flowcontrol.ts"),
  "flowcontrol/ValidateFlowSchemaSubject": ported("flowcontrol.ts"),
  "flowcontrol/ValidateServiceAccountSubject": ported("flowcontrol.ts"),
  "flowcontrol/ValidateUserSubject": ported("flowcontrol.ts"),
  "flowcontrol/ValidateGroupSubject": ported("flowcontrol.ts"),
  "flowcontrol/ValidateFlowSchemaResourcePolicyRule": ported("flowcontrol.ts"),
  "flowcontrol/ValidateFlowSchemaNonResourcePolicyRule": ported("flowcontrol.ts"),
  "flowcontrol/ValidateNonResourceURLPath": ported("flowcontrol.ts"),
  "flowcontrol/ValidateFlowSchemaStatus": outOfScope("status is reset on create (PrepareForCreate)"),
  "flowcontrol/ValidateFlowSchemaCondition": outOfScope("status is reset on create (PrepareForCreate)"),
  "flowcontrol/ValidatePriorityLevelConfiguration": ported("flowcontrol.ts (requests through v1: nominalConcurrencyShares)"),
  "flowcontrol/ValidatePriorityLevelConfigurationSpec": ported("flowcontrol.ts"),
  "flowcontrol/ValidateIfMandatoryPriorityLevelConfigurationObject": ported("flowcontrol.ts"),
  "flowcontrol/ValidateLimitedPriorityLevelConfiguration": ported("flowcontrol.ts"),
  "flowcontrol/ValidateExemptPriorityLevelConfiguration": ported("flowcontrol.ts"),
  "flowcontrol/ValidateLimitResponse": ported("flowcontrol.ts"),
  "flowcontrol/ValidatePriorityLevelQueuingConfiguration": ported("flowcontrol.ts"),
  "flowcontrol/ValidatePriorityLevelConfigurationStatus": outOfScope("status is reset on create (PrepareForCreate)"),
  "flowcontrol/ValidatePriorityLevelConfigurationCondition": outOfScope("status is reset on create (PrepareForCreate)"),
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
  "storage/ValidateCSIDriver": ported("storage.ts, objectmeta.ts (metadata.name: storage's ValidateCSIDriverName is NameIsDNSSubdomain; fields of features off by default are dropped by the server)"),
  "storage/ValidateCSINode": ported("storage.ts"),
  "storage/ValidateCSIStorageCapacity": ported("storage.ts"),
  "storage/ValidateVolumeAttachment": ported("storage.ts (status is cleared on create; an inline volume spec gets the shared PersistentVolume checks of pvc.ts)"),
  "storage/ValidateVolumeAttributesClass": ported("storage.ts"),
  "resource/ValidateDeviceClass": partly("resource.ts, resource-cel.ts; missing: selector CEL errors cel-js cannot be sure of (calls into the Kubernetes CEL libraries, type errors other than undeclared names, unknown device fields and non-bool results) and the cost limit"),
  "resource/ValidateResourceClaim": partly("resource.ts, resource-cel.ts; missing: as ValidateDeviceClass for selectors; adminAccess needs the namespace's label (cluster state)"),
  "resource/ValidateResourceClaimTemplate": partly("resource.ts, resource-cel.ts; missing: as ValidateResourceClaim"),
  "resource/ValidateResourceSlice": ported("resource.ts (list-type attributes and nodeAllocatableResourceMappings belong to features off by default and are dropped by the server)"),
  "apps/ValidateControllerRevisionCreate": ported("apps.ts"),
  "coordination/ValidateCoordinatedLeaseStrategy": outOfScope("Lease.spec.strategy belongs to CoordinatedLeaderElection, off by default in 1.36: the server drops it before validating; LeaseCandidate is not served by default"),
  "core/ValidateNonEmptySelector": ported("core.ts (ReplicationController, after the selector is defaulted from the template)"),
  "core/ValidateHasLabel": ported("batch.ts (the Job's generated selector labels)"),
  "core/ValidateRuntimeClassName": ported("podspec.ts"),
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
