// The shape rendered/iam/index.json must have before the policies package reads it (it trusts its own output):
// a hand-edited or damaged index is a finding at the first wrong field, not a TypeError.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The first problem of an index.json value (JSON Pointer and message), or undefined when it can be read. */
export function iamIndexProblem(v: unknown): { path: string; message: string } | undefined {
  if (!isObject(v) || !Array.isArray(v.roles)) return { path: "/roles", message: "index.json must have a roles array (see the policies package README)" };
  for (const [i, role] of v.roles.entries()) {
    const at = `/roles/${i}`;
    if (!isObject(role)) return { path: at, message: "a role must be an object" };
    for (const key of ["arn", "trustPolicyFile"] as const) if (typeof role[key] !== "string") return { path: `${at}/${key}`, message: `${key} must be a string` };
    for (const key of ["inlinePolicies", "customerManagedPolicies"] as const) {
      const list = role[key];
      if (list === undefined && key === "customerManagedPolicies") continue;
      if (!Array.isArray(list)) return { path: `${at}/${key}`, message: `${key} must be a list` };
      for (const [j, p] of list.entries()) if (!isObject(p) || typeof p.file !== "string") return { path: `${at}/${key}/${j}/file`, message: "file must be a string" };
    }
  }
  if (v.queue !== undefined && !(isObject(v.queue) && typeof v.queue.policyFile === "string")) return { path: "/queue/policyFile", message: "policyFile must be a string" };
  return undefined;
}
