// The Karpenter/Kubernetes compatibility matrix (data, from Karpenter's v1.14 upgrading/compatibility page) and its lookup.

/** Minimum Karpenter version for each Kubernetes minor version. */
export const KARPENTER_MIN_VERSION_FOR_KUBERNETES: Readonly<Record<string, string>> = Object.freeze({
  "1.30": "0.37.0",
  "1.31": "1.0.5",
  "1.32": "1.2.0",
  "1.33": "1.5.0",
  "1.34": "1.6.0",
  "1.35": "1.9.0",
  "1.36": "1.13.0",
});

export type Compatibility =
  | { readonly status: "supported"; readonly minimum: string }
  | { readonly status: "unsupported"; readonly minimum: string }
  /** The Kubernetes minor is not in the table (too old or newer than the data). */
  | { readonly status: "unknown"; readonly known: readonly string[] };

/** Is Karpenter `karpenterVersion` supported on Kubernetes `kubernetesVersion` (`1.36`, `v1.36.2`)? */
export function karpenterCompatibility(kubernetesVersion: string, karpenterVersion: string): Compatibility {
  const minor = kubernetesMinor(kubernetesVersion);
  const minimum = minor === undefined ? undefined : KARPENTER_MIN_VERSION_FOR_KUBERNETES[minor];
  if (minimum === undefined) return { status: "unknown", known: Object.keys(KARPENTER_MIN_VERSION_FOR_KUBERNETES) };
  const version = parseVersion(karpenterVersion);
  if (version === undefined) throw new Error(`'${karpenterVersion}' is not a Karpenter version (expected x.y.z)`);
  return { status: compareVersions(version, parseVersion(minimum)!) >= 0 ? "supported" : "unsupported", minimum };
}

/** `1.36` from `1.36`, `v1.36.2`, `1.36.0-eks-...`; undefined when not a version. */
export function kubernetesMinor(version: string): string | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.\d+)?(?:[-+].*)?$/.exec(version.trim());
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

// Release versions only (x.y.z, optional v, pre-release suffix ignored): the matrix speaks in these, so a semver library would add nothing.
function parseVersion(version: string): [number, number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?(?:[-+].*)?$/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

function compareVersions(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < 3; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
