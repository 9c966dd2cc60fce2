// The pinned schema catalog as data: upstream raw-URL paths and the SHA-256 each download must have.

/** Host of every catalog file; a mirror serves the same paths (`<mirror>/<path>`). */
export const UPSTREAM_BASE = "https://raw.githubusercontent.com";

export interface PinnedFile {
  /** Path after the host: `OWNER/REPO/REF/PATH`. */
  readonly path: string;
  readonly sha256: string;
  /** `openapi-v3` (a Kubernetes /openapi/v3 group-version document) or `crd` (CustomResourceDefinition YAML). */
  readonly format: "openapi-v3" | "crd";
}

/** One pinned upstream release: which project, which version, which files. */
export interface CatalogRelease {
  readonly project: "kubernetes" | "karpenter" | "argocd";
  readonly version: string;
  readonly files: readonly PinnedFile[];
}

const k8s = (file: string, sha256: string): PinnedFile => ({
  path: `kubernetes/kubernetes/v1.36.0/api/openapi-spec/v3/${file}`,
  sha256,
  format: "openapi-v3",
});
const karpenter = (file: string, sha256: string): PinnedFile => ({
  path: `aws/karpenter-provider-aws/v1.14.1/pkg/apis/crds/${file}`,
  sha256,
  format: "crd",
});
const argocd = (file: string, sha256: string): PinnedFile => ({
  path: `argoproj/argo-cd/v3.5.1/manifests/crds/${file}`,
  sha256,
  format: "crd",
});

export const CATALOG: readonly CatalogRelease[] = [
  {
    project: "kubernetes",
    version: "1.36.0",
    files: [
      k8s("api__v1_openapi.json", "a3cbb14c08e7832e80776e717a5658a178dccb3562cc5c1238193634b6985ff8"),
      k8s("apis__apps__v1_openapi.json", "4e190f85e4d9bcea04ee9a4a1501205fd4d1902766426c0e3de7efdeaa7395dc"),
      k8s("apis__autoscaling__v2_openapi.json", "47726b03de581449a6b1ab4323604df6edec4894e199f3059ff1870424d864ad"),
      k8s("apis__batch__v1_openapi.json", "f39ccc48cf5d51dd6312299624c5033f935a67b8044f4c91f0fb8cdc7391f689"),
      k8s("apis__networking.k8s.io__v1_openapi.json", "ea25fb66aae62d27a39649461cba91eea96a03c6395b378cc20a019f4dd77306"),
      k8s("apis__policy__v1_openapi.json", "89af0b1d3257e63e6bb55d9e0e9387a5461c27abacadd943e37d973b1c3fa67c"),
      k8s("apis__rbac.authorization.k8s.io__v1_openapi.json", "060632eb16c82d9d204d23dc70bae49237d206d7bc2d22b812d160ee61a1fb54"),
      k8s("apis__apiextensions.k8s.io__v1_openapi.json", "1c7dd621bece6661867bcc29471f774a46b36c02567d59815c7c72f6d08aa512"),
    ],
  },
  {
    project: "karpenter",
    version: "1.14.1",
    files: [
      karpenter("karpenter.sh_nodepools.yaml", "3bb64a20c80776b77aa19a699ebdaf34480a7b2e7ec4ef890b43225b3517f878"),
      karpenter("karpenter.sh_nodeclaims.yaml", "96037dc241031fe0f7a09ddf78183d885ce6a1dfe115f7b3fbf8a12c564be694"),
      karpenter("karpenter.k8s.aws_ec2nodeclasses.yaml", "62dec59f01c0972d4503ca3ed25f243ba9c2f561be0d964ce7a14c8df406132f"),
      karpenter("karpenter.sh_nodeoverlays.yaml", "6ff6199aff096cc87cd9508f8c5ae62c6d3452aa90c2828ee36380340f3ece62"),
      karpenter("autoscaling.x-k8s.io_capacitybuffers.yaml", "66fd5680b902b38fb9657ad2b432196a06c42b37d078e53be2e39909200a6342"),
    ],
  },
  {
    project: "argocd",
    version: "3.5.1",
    files: [
      argocd("application-crd.yaml", "5dde0e229249b6b707beb98674c1deae3949d5c319a6c45b9f5a80c99618e40c"),
      argocd("applicationset-crd.yaml", "7d282054f41ca2b71a22bab04a8caf0000e07e53a62432e6ea292dae5ab4f07d"),
      argocd("appproject-crd.yaml", "ab225266944322750136f1198d93786e4a79a0e43c8d149abfba44da30a3eac8"),
    ],
  },
];

/** The default versions (the newest pinned); an overlay's versions select among the pinned ones. */
export const DEFAULT_VERSIONS = { kubernetes: "1.36.0", karpenter: "1.14.1", argocd: "3.5.1" } as const;
