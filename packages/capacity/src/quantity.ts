// Kubernetes resource quantities: parse to exact integers (cpu in millicores, everything else in base units) and print.
//
// Hand-written: the only JS implementations (@kubernetes/client-node's quantityToScalar) parse through floating point,
// which turns "0.1" CPU into 100.00000000000001 millicores and rounds it up to 101m. This parser works on the decimal
// digits with BigInt, like k8s.io/apimachinery/pkg/api/resource/quantity.go, so every result is exact.

export class QuantityError extends Error {
  override readonly name = "QuantityError";
}

const BINARY: Readonly<Record<string, bigint>> = {
  Ki: 1n << 10n,
  Mi: 1n << 20n,
  Gi: 1n << 30n,
  Ti: 1n << 40n,
  Pi: 1n << 50n,
  Ei: 1n << 60n,
};
const DECIMAL: Readonly<Record<string, number>> = { n: -9, u: -6, m: -3, "": 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };

const QUANTITY = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]))?$/;

/**
 * The value of a quantity in integer units, rounded up like Kubernetes does (`resource.Quantity.Value()` and
 * `MilliValue()` round up): `scale` 1000 gives millis (CPU), 1 gives base units (bytes, counts).
 */
export function parseQuantity(text: string | number, scale: 1 | 1000 = 1): number {
  const s = String(text).trim();
  const m = QUANTITY.exec(s);
  if (!m) throw new QuantityError(`"${s}" is not a Kubernetes quantity (e.g. 500m, 2, 4G, 153Mi)`);
  const [, sign, number, exponent, suffix = ""] = m;
  const [whole = "", fraction = ""] = number!.split(".");
  let digits = BigInt(`${whole}${fraction}` || "0");
  let exp10 = -fraction.length + (exponent ? Number(exponent.slice(1)) : 0) + (DECIMAL[suffix] ?? 0);
  if (scale === 1000) exp10 += 3;
  const binary = BINARY[suffix];
  if (binary !== undefined) digits *= binary;
  let value: bigint;
  if (exp10 >= 0) value = digits * 10n ** BigInt(exp10);
  else {
    const divisor = 10n ** BigInt(-exp10);
    value = digits / divisor + (digits % divisor === 0n ? 0n : 1n);
  }
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new QuantityError(`"${s}" is too large`);
  const n = Number(value);
  return sign === "-" ? -n : n;
}

/** CPU millicores as Kubernetes prints them: `6450m`, or whole cores `7`. */
export function formatCpu(millis: number): string {
  return millis % 1000 === 0 ? String(millis / 1000) : `${millis}m`;
}

/** Bytes with the largest of Mi/Gi/Ti that divides them exactly (`13215Mi`, `17Gi`), else plain bytes (`12160432128`). */
export function formatBytes(bytes: number): string {
  for (const [suffix, size] of [["Ti", 2 ** 40], ["Gi", 2 ** 30], ["Mi", 2 ** 20]] as const) {
    if (bytes !== 0 && bytes % size === 0) return `${bytes / size}${suffix}`;
  }
  return String(bytes);
}

/** `5%` -> 5; 100% means "disabled" for eviction thresholds (k8s kubelet config), which Karpenter maps to 0. */
export function parsePercentage(text: string): number {
  const n = Number(text.slice(0, -1));
  if (!text.endsWith("%") || !Number.isFinite(n) || n < 0 || n > 100) throw new QuantityError(`"${text}" is not a percentage between 0% and 100%`);
  return n === 100 ? 0 : n;
}

/** Bytes as GiB with one decimal (`12.3Gi`), for tables where exact bytes would not be read. */
export function formatGiB(bytes: number): string {
  return `${(bytes / 2 ** 30).toFixed(1)}Gi`;
}
