// Field paths in the API server's two spellings: its own (`spec.containers[0].ports[0]`) and a JSON Pointer.
// After k8s.io/apimachinery@v0.36.5/pkg/util/validation/field/path.go (String()); written for this project.
import { pointerSegment } from "../pointer.ts";

/** One step of a path: a field name, a list index or a map key. Immutable; strings are built only when a finding is made. */
export class FieldPath {
  private constructor(
    private readonly parent: FieldPath | undefined,
    /** field name (dotted in Go's form) or, for index/key steps, undefined */
    private readonly name: string | undefined,
    /** list index or map key, printed as `[x]` in Go's form */
    private readonly sub: string | undefined,
  ) {}

  // Up to three names, not a rest parameter: the native stage makes a path at nearly every call it makes, and a
  // rest parameter allocates an array each time (most of this code runs only a few thousand times per run, before
  // V8 optimises it away).

  /** A root path: `FieldPath.of("spec", "template")` is `spec.template`. */
  static of(first = "", second?: string, third?: string): FieldPath {
    return new FieldPath(undefined, first, undefined).child(second, third);
  }

  /** `path.child("a", "b")` is `path.a.b`; an undefined name adds no step. */
  child(first?: string, second?: string, third?: string): FieldPath {
    let p: FieldPath = this;
    if (first !== undefined) p = new FieldPath(p, first, undefined);
    if (second !== undefined) p = new FieldPath(p, second, undefined);
    if (third !== undefined) p = new FieldPath(p, third, undefined);
    return p;
  }

  index(i: number): FieldPath {
    return new FieldPath(this, undefined, String(i));
  }

  key(k: string): FieldPath {
    return new FieldPath(this, undefined, k);
  }

  private steps(): FieldPath[] {
    const out: FieldPath[] = [];
    for (let p: FieldPath | undefined = this; p; p = p.parent) out.push(p);
    return out.reverse();
  }

  /** Go's form: `spec.template.spec.containers[0].resources.limits[cpu]`. */
  toString(): string {
    let s = "";
    for (const p of this.steps()) {
      // Go prints an empty name as a subscript: NewPath("") is "[]" (ConfigMap's size error says so)
      if (p.name !== undefined) s += p.name.length === 0 ? "[]" : p.parent ? `.${p.name}` : p.name;
      else s += `[${p.sub}]`;
    }
    return s;
  }

  /** JSON Pointer of the same place: `/spec/template/spec/containers/0/resources/limits/cpu`. */
  pointer(): string {
    let s = "";
    for (const p of this.steps()) {
      const seg = p.name ?? (p.sub as string);
      if (seg.length > 0 || p.name === undefined) s += `/${pointerSegment(seg)}`;
    }
    return s;
  }
}
