// Fields the published OpenAPI of a built-in kind lists as `required` that kube-apiserver 1.36.5 does not require:
// the Go field is a value (not a pointer, no omitempty), an absent one decodes to its zero value, and the Go
// validation accepts that zero value. Enforcing `required` there refuses objects the server accepts. Each entry was
// measured against kube-apiserver v1.36.5 (dry-run create of the object without the field; packages/e2e probe);
// a field the Go code does check (ResourcePool.name, resourceSliceCount) stays required.
export const UNENFORCED_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  "io.k8s.api.apps.v1.ControllerRevision": ["revision"],
  "io.k8s.api.core.v1.LimitRangeSpec": ["limits"],
  "io.k8s.api.storage.v1.CSINode": ["spec"],
  "io.k8s.api.storage.v1.CSINodeSpec": ["drivers"],
  "io.k8s.api.resource.v1.DeviceClass": ["spec"],
  "io.k8s.api.resource.v1.ResourceClaim": ["spec"],
  "io.k8s.api.resource.v1.ResourceClaimTemplate": ["spec"],
  "io.k8s.api.resource.v1.ResourceClaimTemplateSpec": ["spec"],
  "io.k8s.api.resource.v1.ResourcePool": ["generation"],
  "io.k8s.api.resource.v1.DeviceCapacity": ["value"],
};

/** `required` of a built-in definition without the fields the server does not enforce. */
export function enforcedRequired(definition: string, required: readonly string[]): string[] {
  const skip = UNENFORCED_REQUIRED[definition];
  return skip ? required.filter((f) => !skip.includes(f)) : [...required];
}
