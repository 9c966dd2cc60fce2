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

const kubernetesAt =
  (tag: string) =>
  (file: string, sha256: string): PinnedFile => ({
    path: `kubernetes/kubernetes/${tag}/api/openapi-spec/v3/${file}`,
    sha256,
    format: "openapi-v3",
  });
const k8s = kubernetesAt("v1.36.0");
const k8s5 = kubernetesAt("v1.36.5");
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
    // every GA group-version of the release (core v1 and each apis/<group>/v1|v2)
    project: "kubernetes",
    version: "1.36.5",
    files: [
      k8s5("api__v1_openapi.json", "a3cbb14c08e7832e80776e717a5658a178dccb3562cc5c1238193634b6985ff8"),
      k8s5("apis__admissionregistration.k8s.io__v1_openapi.json", "497d32b28c101b251c4192577794c8b17a5fecdc7551ba5eba0d6ab1bbbace21"),
      k8s5("apis__apiextensions.k8s.io__v1_openapi.json", "1c7dd621bece6661867bcc29471f774a46b36c02567d59815c7c72f6d08aa512"),
      k8s5("apis__apiregistration.k8s.io__v1_openapi.json", "d3a0471e3e8ed54872390d5e587a773c6ec750369ab470e35cc2c4a7e75a7e10"),
      k8s5("apis__apps__v1_openapi.json", "4e190f85e4d9bcea04ee9a4a1501205fd4d1902766426c0e3de7efdeaa7395dc"),
      k8s5("apis__authentication.k8s.io__v1_openapi.json", "a024bbc5e65cefbf48d1db9e556b05222f56bde5e70b1782c285da76f6521b44"),
      k8s5("apis__authorization.k8s.io__v1_openapi.json", "6654256e4da02e94d848dfecf10245b6e74769c205822ae6ce709e742a6018d9"),
      k8s5("apis__autoscaling__v1_openapi.json", "42775783d2fa0e55637f1c910361abb5970150c944bcc2bce330cb647d26f1e1"),
      k8s5("apis__autoscaling__v2_openapi.json", "47726b03de581449a6b1ab4323604df6edec4894e199f3059ff1870424d864ad"),
      k8s5("apis__batch__v1_openapi.json", "f39ccc48cf5d51dd6312299624c5033f935a67b8044f4c91f0fb8cdc7391f689"),
      k8s5("apis__certificates.k8s.io__v1_openapi.json", "d8a3339d727913d644016ba2f24aaee9ad4416011066d3baed2c1afc3bf1f6c8"),
      k8s5("apis__coordination.k8s.io__v1_openapi.json", "54b9a4143dbe22fa74ed47ae2a3694f844d1c65e7c1012c80667e0c7d0e5112a"),
      k8s5("apis__discovery.k8s.io__v1_openapi.json", "29b42c9d7c944a0902e2738e3a0d4567ddda326292a8dedc75fe74eea7089af1"),
      k8s5("apis__events.k8s.io__v1_openapi.json", "59e3fdad17e39047e9fab4f75fdcc7aaf7269bf1dc148a7f3865ab90e3334e80"),
      k8s5("apis__flowcontrol.apiserver.k8s.io__v1_openapi.json", "9f8b7cd5953c2316b42d12c55339ec4f1b16046a644634256cc02d7312a8d895"),
      k8s5("apis__networking.k8s.io__v1_openapi.json", "ea25fb66aae62d27a39649461cba91eea96a03c6395b378cc20a019f4dd77306"),
      k8s5("apis__node.k8s.io__v1_openapi.json", "e08ef6b735b0adeddd6a1451bd46b00971bc84b156136d9d46f80ca207c54cb6"),
      k8s5("apis__policy__v1_openapi.json", "89af0b1d3257e63e6bb55d9e0e9387a5461c27abacadd943e37d973b1c3fa67c"),
      k8s5("apis__rbac.authorization.k8s.io__v1_openapi.json", "060632eb16c82d9d204d23dc70bae49237d206d7bc2d22b812d160ee61a1fb54"),
      k8s5("apis__resource.k8s.io__v1_openapi.json", "db24d1cb24681696af6478da11d530d0b6c288b172526d1425453761fb131e00"),
      k8s5("apis__scheduling.k8s.io__v1_openapi.json", "c832d22dcc8c28e859a9bc2a01635fe22ccbf7e433ae401a1691b7afde3e0d66"),
      k8s5("apis__storage.k8s.io__v1_openapi.json", "b6599cea1616d682816f05a4c2713c5d5284707cb1121af874f0a2eac737d77d"),
    ],
  },
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
export const DEFAULT_VERSIONS = { kubernetes: "1.36.5", karpenter: "1.14.1", argocd: "3.5.1" } as const;
