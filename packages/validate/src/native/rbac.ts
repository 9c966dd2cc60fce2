// Role, ClusterRole, RoleBinding and ClusterRoleBinding (rbac.authorization.k8s.io/v1) as the API server validates
// them on create. After k8s.io/kubernetes@v1.36.5/pkg/apis/rbac/validation/validation.go and
// pkg/apis/rbac/v1/defaults.go (a User or Group subject's apiGroup defaults to rbac.authorization.k8s.io).
import { validateLabelSelector } from "./labelselector.ts";
import { isDns1123Subdomain, isValidPathSegmentName } from "./names.ts";
import { FieldPath } from "./path.ts";
import type { NativeGroup } from "./registry.ts";
import { JsonValue, type Reporter } from "./report.ts";
import { type Obj, asArr, asObj, asStr, objItems } from "./values.ts";

const GROUP = "rbac.authorization.k8s.io";
const len = (v: unknown) => asArr(v)?.length ?? 0;

function validatePolicyRule(rule: Obj, namespaced: boolean, path: FieldPath, r: Reporter): void {
  const check = "rbac/policy-rule";
  if (len(rule.verbs) === 0) r.required(path.child("verbs"), "verbs must contain at least one value", check);
  if (len(rule.nonResourceURLs) > 0) {
    const urls = new JsonValue(rule.nonResourceURLs);
    if (namespaced) r.invalid(path.child("nonResourceURLs"), urls, "namespaced rules cannot apply to non-resource URLs", check);
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      r.invalid(path.child("nonResourceURLs"), urls, "rules cannot apply to both regular resources and non-resource URLs", check);
    }
    return;
  }
  if (len(rule.apiGroups) === 0) r.required(path.child("apiGroups"), "resource rules must supply at least one api group", check);
  if (len(rule.resources) === 0) r.required(path.child("resources"), "resource rules must supply at least one resource", check);
}

function validateRules(role: Obj, namespaced: boolean, r: Reporter): void {
  for (const [i, rule] of objItems(role.rules)) validatePolicyRule(rule, namespaced, FieldPath.of("rules").index(i), r);
}

function validateRole(role: Obj, r: Reporter): void {
  validateRules(role, true, r);
}

function validateClusterRole(role: Obj, r: Reporter): void {
  validateRules(role, false, r);
  const aggregation = asObj(role.aggregationRule);
  if (!aggregation) return;
  const path = FieldPath.of("aggregationRule", "clusterRoleSelectors");
  if (len(aggregation.clusterRoleSelectors) === 0) r.required(path, "at least one clusterRoleSelector required if aggregationRule is non-nil", "rbac/aggregation-rule");
  for (const [i, selector] of objItems(aggregation.clusterRoleSelectors)) validateLabelSelector(selector, path.index(i), r);
}

function validateSubject(subject: Obj, namespaced: boolean, path: FieldPath, r: Reporter): void {
  const check = "rbac/subject";
  const name = asStr(subject.name) ?? "";
  const kind = asStr(subject.kind) ?? "";
  const apiGroup = asStr(subject.apiGroup) ?? "";
  if (name.length === 0) r.required(path.child("name"), "", check);
  if (kind === "ServiceAccount") {
    if (name.length > 0) r.invalidEach(path.child("name"), name, isDns1123Subdomain(name), check);
    if (apiGroup.length > 0) r.notSupported(path.child("apiGroup"), apiGroup, [""], check);
    if (!namespaced && (asStr(subject.namespace) ?? "").length === 0) r.required(path.child("namespace"), "", check);
  } else if (kind === "User" || kind === "Group") {
    // "" is defaulted to rbac.authorization.k8s.io before validation
    if (apiGroup !== "" && apiGroup !== GROUP) r.notSupported(path.child("apiGroup"), apiGroup, [GROUP], check);
  } else r.notSupported(path.child("kind"), kind, ["ServiceAccount", "User", "Group"], check);
}

function validateBinding(binding: Obj, namespaced: boolean, r: Reporter): void {
  const check = "rbac/role-ref";
  const ref = asObj(binding.roleRef) ?? {};
  // an empty apiGroup is defaulted to rbac.authorization.k8s.io before validation (SetDefaults_RoleBinding, SetDefaults_ClusterRoleBinding)
  const apiGroup = asStr(ref.apiGroup) || GROUP;
  const kind = asStr(ref.kind) ?? "";
  const name = asStr(ref.name) ?? "";
  if (apiGroup !== GROUP) r.notSupported(FieldPath.of("roleRef", "apiGroup"), apiGroup, [GROUP], check);
  const kinds = namespaced ? ["Role", "ClusterRole"] : ["ClusterRole"];
  if (!kinds.includes(kind)) r.notSupported(FieldPath.of("roleRef", "kind"), kind, kinds, check);
  if (name.length === 0) r.required(FieldPath.of("roleRef", "name"), "", check);
  else r.invalidEach(FieldPath.of("roleRef", "name"), name, isValidPathSegmentName(name), check);
  for (const [i, subject] of objItems(binding.subjects)) validateSubject(subject, namespaced, FieldPath.of("subjects").index(i), r);
}

export const RBAC: NativeGroup = {
  group: GROUP,
  kinds: {
    Role: validateRole,
    ClusterRole: validateClusterRole,
    RoleBinding: (b, r) => validateBinding(b, true, r),
    ClusterRoleBinding: (b, r) => validateBinding(b, false, r),
  },
};
