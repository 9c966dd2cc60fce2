// Karpenter's label requirements: a set (or complement set) of values with integer bounds, intersected per key.
// Rewritten from kubernetes-sigs/karpenter pkg/scheduling/requirement.go and pkg/scheduling/requirements.go.
import type { NodeSelectorRequirement, RequirementOperator } from "./types.ts";

/** Labels Karpenter knows, and that pods may use without a NodePool defining them (karpenter pkg/apis/v1/labels.go WellKnownLabels, extended by aws/karpenter-provider-aws pkg/apis/v1/labels.go init). */
export const WELL_KNOWN_LABELS: ReadonlySet<string> = new Set([
  "karpenter.sh/nodepool",
  "topology.kubernetes.io/zone",
  "topology.kubernetes.io/region",
  "node.kubernetes.io/instance-type",
  "kubernetes.io/arch",
  "kubernetes.io/os",
  "karpenter.sh/capacity-type",
  "node.kubernetes.io/windows-build",
  "karpenter.k8s.aws/capacity-reservation-id",
  "karpenter.k8s.aws/capacity-reservation-type",
  "karpenter.k8s.aws/capacity-reservation-interruptible",
  "karpenter.k8s.aws/instance-hypervisor",
  "karpenter.k8s.aws/instance-encryption-in-transit-supported",
  "karpenter.k8s.aws/instance-category",
  "karpenter.k8s.aws/instance-capability-flex",
  "karpenter.k8s.aws/instance-family",
  "karpenter.k8s.aws/instance-generation",
  "karpenter.k8s.aws/instance-size",
  "karpenter.k8s.aws/instance-local-nvme",
  "karpenter.k8s.aws/instance-cpu",
  "karpenter.k8s.aws/instance-cpu-manufacturer",
  "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz",
  "karpenter.k8s.aws/instance-memory",
  "karpenter.k8s.aws/instance-ebs-bandwidth",
  "karpenter.k8s.aws/instance-network-bandwidth",
  "karpenter.k8s.aws/instance-gpu-name",
  "karpenter.k8s.aws/instance-gpu-manufacturer",
  "karpenter.k8s.aws/instance-gpu-count",
  "karpenter.k8s.aws/instance-gpu-memory",
  "karpenter.k8s.aws/instance-accelerator-name",
  "karpenter.k8s.aws/instance-accelerator-manufacturer",
  "karpenter.k8s.aws/instance-accelerator-count",
  "topology.k8s.aws/zone-id",
  "karpenter.k8s.aws/instance-tenancy",
  "karpenter.k8s.aws/placement-group-id",
  "karpenter.k8s.aws/placement-group-partition",
]);

/** Deprecated label keys Karpenter reads as their stable names (karpenter pkg/apis/v1/labels.go NormalizedLabels). */
const NORMALIZED: Readonly<Record<string, string>> = {
  "failure-domain.beta.kubernetes.io/zone": "topology.kubernetes.io/zone",
  "failure-domain.beta.kubernetes.io/region": "topology.kubernetes.io/region",
  "beta.kubernetes.io/arch": "kubernetes.io/arch",
  "beta.kubernetes.io/os": "kubernetes.io/os",
  "beta.kubernetes.io/instance-type": "node.kubernetes.io/instance-type",
};

export function normalizeKey(key: string): string {
  return NORMALIZED[key] ?? key;
}

/** Parses an integer the way Go's strconv.Atoi does (optional sign, decimal digits only). */
function atoi(value: string): number | undefined {
  return /^[+-]?\d+$/.test(value) ? Number(value) : undefined;
}

/**
 * One key's allowed values: `values` when not `complement`, everything but `values` when `complement`;
 * `gte`/`lte` bound integer values (Gt N is kept as Gte N+1, Lt N as Lte N-1).
 */
export class Requirement {
  constructor(
    readonly key: string,
    readonly complement: boolean,
    readonly values: ReadonlySet<string>,
    readonly gte?: number,
    readonly lte?: number,
    readonly minValues?: number,
  ) {}

  static of(key: string, operator: RequirementOperator, values: readonly string[] = [], minValues?: number): Requirement {
    const k = normalizeKey(key);
    switch (operator) {
      case "In":
        return new Requirement(k, false, new Set(values), undefined, undefined, minValues);
      case "NotIn":
        return new Requirement(k, true, new Set(values), undefined, undefined, minValues);
      case "Exists":
        return new Requirement(k, true, new Set(), undefined, undefined, minValues);
      case "DoesNotExist":
        return new Requirement(k, false, new Set(), undefined, undefined, minValues);
      case "Gt":
      case "Gte":
      case "Lt":
      case "Lte": {
        const n = atoi(values[0] ?? "");
        if (n === undefined) throw new Error(`${key} ${operator}: needs one integer value (got ${JSON.stringify(values)})`);
        if (operator === "Gt") return new Requirement(k, true, new Set(), n + 1, undefined, minValues);
        if (operator === "Gte") return new Requirement(k, true, new Set(), n, undefined, minValues);
        if (operator === "Lt") return new Requirement(k, true, new Set(), undefined, n - 1, minValues);
        return new Requirement(k, true, new Set(), undefined, n, minValues);
      }
    }
  }

  static fromSelector(r: NodeSelectorRequirement): Requirement {
    return Requirement.of(r.key, r.operator, r.values ?? [], r.minValues);
  }

  /** In / NotIn / Exists / DoesNotExist, as Karpenter names the set (bounded sets count as Exists). */
  operator(): "In" | "NotIn" | "Exists" | "DoesNotExist" {
    if (this.complement) return this.values.size > 0 ? "NotIn" : "Exists";
    return this.values.size > 0 ? "In" : "DoesNotExist";
  }

  has(value: string): boolean {
    if (!withinBounds(value, this.gte, this.lte)) return false;
    return this.complement ? !this.values.has(value) : this.values.has(value);
  }

  intersection(other: Requirement): Requirement {
    const complement = this.complement && other.complement;
    let gte = maxOf(this.gte, other.gte);
    let lte = minOf(this.lte, other.lte);
    const minValues = maxOf(this.minValues, other.minValues);
    if (gte !== undefined && lte !== undefined && gte > lte) return new Requirement(this.key, false, new Set(), undefined, undefined, minValues);
    let values: Set<string>;
    if (this.complement && other.complement) values = new Set([...this.values, ...other.values]);
    else if (this.complement) values = new Set([...other.values].filter((v) => !this.values.has(v)));
    else if (other.complement) values = new Set([...this.values].filter((v) => !other.values.has(v)));
    else values = new Set([...this.values].filter((v) => other.values.has(v)));
    for (const v of values) if (!withinBounds(v, gte, lte)) values.delete(v);
    if (!complement) {
      gte = undefined;
      lte = undefined;
    }
    return new Requirement(this.key, complement, values, gte, lte, minValues);
  }

  hasIntersection(other: Requirement): boolean {
    const gte = maxOf(this.gte, other.gte);
    const lte = minOf(this.lte, other.lte);
    if (gte !== undefined && lte !== undefined && gte > lte) return false;
    if (this.complement && other.complement) return true;
    if (this.complement) {
      for (const v of other.values) if (!this.values.has(v) && withinBounds(v, gte, lte)) return true;
      return false;
    }
    if (other.complement) {
      for (const v of this.values) if (!other.values.has(v) && withinBounds(v, gte, lte)) return true;
      return false;
    }
    for (const v of this.values) if (other.values.has(v) && withinBounds(v, gte, lte)) return true;
    return false;
  }

  toString(): string {
    const op = this.operator();
    let s = op === "Exists" || op === "DoesNotExist" ? `${this.key} ${op}` : `${this.key} ${op} [${[...this.values].sort().join(" ")}]`;
    if (this.gte !== undefined) s += ` >=${this.gte}`;
    if (this.lte !== undefined) s += ` <=${this.lte}`;
    if (this.minValues !== undefined) s += ` minValues ${this.minValues}`;
    return s;
  }
}

function withinBounds(value: string, gte: number | undefined, lte: number | undefined): boolean {
  if (gte === undefined && lte === undefined) return true;
  const n = atoi(value);
  if (n === undefined) return false;
  return !((gte !== undefined && n < gte) || (lte !== undefined && n > lte));
}
function maxOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}
function minOf(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

const EXISTS = (key: string) => new Requirement(key, true, new Set());

/** Requirements by key; adding a key twice intersects (karpenter pkg/scheduling/requirements.go Add). */
export class Requirements {
  readonly byKey = new Map<string, Requirement>();

  constructor(items: Iterable<Requirement> = []) {
    for (const r of items) this.add(r);
  }

  static fromSelectors(selectors: readonly NodeSelectorRequirement[] = []): Requirements {
    return new Requirements(selectors.map((s) => Requirement.fromSelector(s)));
  }

  static fromLabels(labels: Readonly<Record<string, string>> = {}): Requirements {
    return new Requirements(Object.entries(labels).map(([k, v]) => Requirement.of(k, "In", [v])));
  }

  /** Does any capacity-reservation label appear (offerings then check it: nodeclaimtemplate.ts offeringCompatible)? */
  get hasReservationKeys(): boolean {
    return (
      this.byKey.has("karpenter.k8s.aws/capacity-reservation-id") ||
      this.byKey.has("karpenter.k8s.aws/capacity-reservation-type") ||
      this.byKey.has("karpenter.k8s.aws/capacity-reservation-interruptible")
    );
  }

  copy(): Requirements {
    const r = new Requirements();
    for (const [k, v] of this.byKey) r.byKey.set(k, v);
    return r;
  }

  add(r: Requirement): this {
    const existing = this.byKey.get(r.key);
    this.byKey.set(r.key, existing ? r.intersection(existing) : r);
    return this;
  }

  addAll(other: Requirements): this {
    for (const r of other.byKey.values()) this.add(r);
    return this;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /** The requirement of a key; an undefined key allows anything (Exists). */
  get(key: string): Requirement {
    return this.byKey.get(key) ?? EXISTS(key);
  }

  /**
   * Why `incoming` cannot be met together with these requirements, or undefined when it can.
   * Custom (not well-known) keys of `incoming` must be defined here unless they only exclude values
   * (karpenter pkg/scheduling/requirements.go Compatible with AllowUndefinedWellKnownLabels).
   */
  compatible(incoming: Requirements): string | undefined {
    for (const [key, r] of incoming.byKey) {
      if (WELL_KNOWN_LABELS.has(key)) continue;
      const op = r.operator();
      if (this.has(key) || op === "NotIn" || op === "DoesNotExist") continue;
      return `label "${key}" does not have known values`;
    }
    return this.intersects(incoming);
  }

  /** Keys defined on both sides must share a value (karpenter pkg/scheduling/requirements.go Intersects). */
  intersects(incoming: Requirements): string | undefined {
    const [small, large] = this.byKey.size <= incoming.byKey.size ? [this.byKey, incoming.byKey] : [incoming.byKey, this.byKey];
    for (const key of small.keys()) {
      if (!large.has(key)) continue;
      const existing = this.get(key);
      const other = incoming.get(key);
      if (existing.hasIntersection(other)) continue;
      const a = other.operator();
      const b = existing.operator();
      if ((a === "NotIn" || a === "DoesNotExist") && (b === "NotIn" || b === "DoesNotExist")) continue;
      return `key ${key}, ${other} not in ${existing}`;
    }
    return undefined;
  }

  hasMinValues(): boolean {
    for (const r of this.byKey.values()) if (r.minValues !== undefined) return true;
    return false;
  }
}
