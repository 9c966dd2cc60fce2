// controllerPermissions(): the controller role's permission policies for the overlay's profile, packed to fit IAM's limits.
import type { ClusterConfig } from "@eks-gitops/config";
import { type PackedPolicies, packPolicies } from "../size.ts";
import { interruptionPolicyGroup, type PolicyGroup, scopedControllerPolicies } from "./scoped.ts";
import { tutorialControllerPolicy } from "./tutorial.ts";

/** The statement groups of the overlay's `karpenter.iamProfile`, before packing. */
export function controllerPolicyGroups(config: ClusterConfig): PolicyGroup[] {
  if (config.karpenter.iamProfile === "scoped") return scopedControllerPolicies(config);
  // The lab has no queue; when the overlay adds one, its access comes as a separate policy so the lab's stays as written.
  const queue = interruptionPolicyGroup(config);
  return queue ? [tutorialControllerPolicy(config), queue] : [tutorialControllerPolicy(config)];
}

export function controllerPermissions(config: ClusterConfig): PackedPolicies {
  return packPolicies({
    roleName: config.controllerRole.name,
    partition: config.partition,
    account: config.account,
    groups: controllerPolicyGroups(config),
    attachedManagedPolicies: 0,
  });
}
