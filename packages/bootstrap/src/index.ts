// Public API of @eks-gitops/bootstrap.
export { addNodeRole, AWS_AUTH, AwsAuthFormatError, hasRole, NODE_GROUPS, NODE_USERNAME, nodeRoleMapping, removeRole } from "./aws-auth.ts";
export type { AwsAuthEdit, MapRole } from "./aws-auth.ts";
export { AwsCallError, createAwsClients, describeAwsError } from "./aws.ts";
export type { AwsClients, AwsClientOptions, CallerRef } from "./aws.ts";
export { QUEUE_TARGET_ID, readDesired, RenderedIamError } from "./desired.ts";
export type { Desired, DesiredQueue, DesiredRole } from "./desired.ts";
export { discover, DiscoveryRefusal } from "./discover.ts";
export type { Actual, DiscoveryProgress } from "./discover.ts";
export { executePlan } from "./execute.ts";
export { KubeCallError, KubeconfigError, kubeAccess, loadKubeConfig } from "./kube.ts";
export type { KubeAccess } from "./kube.ts";
export { planApply, planDestroy } from "./plan.ts";
export type { Change, KubeFacts, Operation, Plan } from "./plan.ts";
export { formatPlan, planJson, summarize } from "./report.ts";
export { bootstrap } from "./run.ts";
export type { Action, BootstrapOptions, BootstrapResult, BootstrapStatus } from "./run.ts";
export { isManaged, managedTags, TAG_ADDED_DISCOVERY, TAG_CLUSTER, TAG_MANAGED_BY } from "./tags.ts";
