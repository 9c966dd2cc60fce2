// Public API of @eks-gitops/validate.
export type * from "./types.ts";
