// Relative-path rules shared by volume items, mounts and profiles: no absolute path, no '..' element, no leading '..'.
// After k8s.io/kubernetes@v1.36.5/pkg/apis/core/validation/validation.go (validateLocalDescendingPath,
// validatePathNoBacksteps, ValidateLocalNonReservedPath).
import type { FieldPath } from "./path.ts";
import type { Reporter } from "./report.ts";

/** A '..' path element. */
const BACKSTEP = /(^|\/)\.\.(\/|$)/;

/** validatePathNoBacksteps: one finding however many '..' elements there are. */
export function validatePathNoBacksteps(target: string, path: FieldPath, r: Reporter, check: string, pointer?: string): void {
  if (target.includes("..") && BACKSTEP.test(target)) r.invalid(path, target, "must not contain '..'", check, pointer);
}

/** validateLocalDescendingPath: relative, without '..' elements. */
export function validateLocalDescendingPath(target: string, path: FieldPath, r: Reporter, check: string, pointer?: string): void {
  if (target.startsWith("/")) r.invalid(path, target, "must be a relative path", check, pointer);
  validatePathNoBacksteps(target, path, r, check, pointer);
}

/** ValidateLocalNonReservedPath: as validateLocalDescendingPath, and not starting with '..' (unless '../' already said so). */
export function validateLocalNonReservedPath(target: string, path: FieldPath, r: Reporter, check: string, pointer?: string): void {
  validateLocalDescendingPath(target, path, r, check, pointer);
  if (target.startsWith("..") && !target.startsWith("../")) r.invalid(path, target, "must not start with '..'", check, pointer);
}
