// Resource vectors for the fit test, the hot loop of a large simulation (karpenter pkg/utils/resources Fits).
import type { Amounts } from "./instance-types.ts";

/** Resource names to vector positions, fixed for one simulation. */
export class ResourceSpace {
  readonly index = new Map<string, number>();
  constructor(names: Iterable<string>) {
    for (const n of names) if (!this.index.has(n)) this.index.set(n, this.index.size);
  }
  vector(amounts: Amounts): Float64Array {
    const v = new Float64Array(this.index.size);
    for (const [name, n] of Object.entries(amounts)) {
      const i = this.index.get(name);
      if (i !== undefined) v[i] = n;
    }
    return v;
  }
}
