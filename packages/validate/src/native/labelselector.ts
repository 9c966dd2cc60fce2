// metav1.LabelSelector as the API server validates it (matchLabels as labels; matchExpressions operators and values),
// and whether a selector matches a set of labels (a workload's selector against its template's labels).
// After k8s.io/apimachinery@v0.36.5/pkg/apis/meta/v1/validation/validation.go (ValidateLabelSelector) and
// pkg/apis/meta/v1/helpers.go + pkg/labels/selector.go (LabelSelectorAsSelector, Matches).
import { validateLabels } from "./objectmeta.ts";
import { isLabelValue, isQualifiedName } from "./names.ts";
import type { FieldPath } from "./path.ts";
import type { Reporter } from "./report.ts";
import { asArr, asObj, asStr, objItems, stringEntries } from "./values.ts";

export interface LabelSelectorOptions {
  /** Values in matchExpressions need not be valid label values (only for objects that already had them). @default false */
  readonly allowInvalidLabelValue?: boolean;
}

export function validateLabelSelector(selector: unknown, path: FieldPath, r: Reporter, options: LabelSelectorOptions = {}): void {
  const s = asObj(selector);
  if (!s) return;
  validateLabels(s.matchLabels, path.child("matchLabels"), r, "meta/label-selector");
  for (const [i, expr] of objItems(s.matchExpressions)) validateRequirement(expr, path.child("matchExpressions").index(i), r, options);
}

function validateRequirement(expr: Readonly<Record<string, unknown>>, path: FieldPath, r: Reporter, options: LabelSelectorOptions): void {
  const op = asStr(expr.operator) ?? "";
  const values = asArr(expr.values) ?? [];
  const check = "meta/label-selector";
  if (op === "In" || op === "NotIn") {
    if (values.length === 0) r.required(path.child("values"), "must be specified when `operator` is 'In' or 'NotIn'", check);
  } else if (op === "Exists" || op === "DoesNotExist") {
    if (values.length > 0) r.forbidden(path.child("values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'", check);
  } else {
    r.invalid(path.child("operator"), op, "not a valid selector operator", check);
  }
  const key = asStr(expr.key) ?? "";
  for (const m of isQualifiedName(key)) r.invalid(path.child("key"), key, m, check);
  if (options.allowInvalidLabelValue) return;
  values.forEach((v, i) => {
    if (typeof v === "string") for (const m of isLabelValue(v)) r.invalid(path.child("values").index(i), v, m, check);
  });
}

/** True when the selector has neither matchLabels nor matchExpressions (it would select everything). */
export function selectorIsEmpty(selector: unknown): boolean {
  const s = asObj(selector);
  if (!s) return true;
  return stringEntries(s.matchLabels).length === 0 && (asArr(s.matchExpressions)?.length ?? 0) === 0;
}

/**
 * Whether `labels` satisfy the selector. Only called on selectors that validated (a selector that cannot be
 * converted matches nothing, as LabelSelectorAsSelector's error makes callers treat it).
 */
export function selectorMatches(selector: unknown, labels: unknown): boolean {
  const s = asObj(selector);
  if (!s) return false;
  const have = new Map(stringEntries(labels));
  for (const [k, v] of stringEntries(s.matchLabels)) if (have.get(k) !== v) return false;
  for (const [, expr] of objItems(s.matchExpressions)) {
    const key = asStr(expr.key) ?? "";
    const values = (asArr(expr.values) ?? []).filter((v): v is string => typeof v === "string");
    const value = have.get(key);
    switch (asStr(expr.operator)) {
      case "In":
        if (value === undefined || !values.includes(value)) return false;
        break;
      case "NotIn":
        if (value !== undefined && values.includes(value)) return false;
        break;
      case "Exists":
        if (value === undefined) return false;
        break;
      case "DoesNotExist":
        if (value !== undefined) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
