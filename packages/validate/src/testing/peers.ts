// Test support for other packages (`@eks-gitops/validate/testing`): the pinned catalog in the layouts kubeconform and
// kubectl-validate read, and running those peers without network access. Not part of the validator.
export { writeKubeconformSchemas } from "../bench/kubeconform-schemas.ts";
export { writeKubectlValidateSchemas } from "./kube-schemas.ts";
export { offline } from "./test-tools.ts";
