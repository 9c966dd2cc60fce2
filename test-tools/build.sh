#!/usr/bin/env bash
# Builds (or reuses) the Go test peers: kube-apiserver, etcd, kubeconform, kubectl-validate, karpenter-hash, karpenter-sim,
# go-sort.
# Test tooling only; never part of the product. See test-tools/README.md.
#
# Usage: test-tools/build.sh [kube-apiserver] [etcd] [kubeconform] [kubectl-validate] [karpenter-hash] [karpenter-sim] [go-sort]
#        (no argument = all seven)
#        test-tools/build.sh --versions    # print "name version" lines, build nothing
#
# stdout: the absolute path of each requested binary, one per line, in argument order
#         (so `APISERVER=$(test-tools/build.sh kube-apiserver)` works).
# stderr: what was built or reused, and the elapsed seconds per build.
#
# Cache: ${TEST_TOOLS_CACHE:-${XDG_CACHE_HOME:-~/.cache}/eks-gitops/test-tools}/<name>-<version>/<name>.
# Per user, outside the clone, so that every clone (and CI's fresh clone on the same machine) reuses
# one build. A binary present there is reused as is; delete its folder to force a rebuild.
# Go's own module and build caches (go env GOMODCACHE / GOCACHE) are used as usual.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CACHE="${TEST_TOOLS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/eks-gitops/test-tools}"

KUBE_DIR="$HERE/kube/apiserver"
ETCD_DIR="$HERE/kube/etcd"
KARPENTER_HASH_DIR="$HERE/kube/karpenter-hash"
KSIM_DIR="$HERE/kube/karpenter-sim"
GOSORT_DIR="$HERE/kube/go-sort"

# Versions of the in-repo modules come from their go.mod (single source of truth).
modver() { # modver <go.mod> <module path>
  awk -v m="$2" '$1 == "require" && $2 == m { print $3; exit } $1 == m && $2 ~ /^v/ { print $2; exit }' "$1"
}
KUBE_VERSION="$(modver "$KUBE_DIR/go.mod" k8s.io/kubernetes)"
ETCD_VERSION="$(modver "$ETCD_DIR/go.mod" go.etcd.io/etcd/server/v3)"
# Karpenter's own NodePool.Hash() / EC2NodeClass.Hash(), pinned by its go.mod; the cache key also carries a digest of
# the peer's own sources, so an edit to main.go rebuilds it.
KARPENTER_VERSION="$(awk '$1 == "sigs.k8s.io/karpenter" && $2 ~ /^v/ { print $2; exit }' "$KARPENTER_HASH_DIR/go.mod")-$(cat "$KARPENTER_HASH_DIR/main.go" "$KARPENTER_HASH_DIR/go.sum" | sha256sum | cut -c1-8)"
# karpenter-sim: Karpenter's own scheduler and AWS instance-type provider (packages/capacity's e2e differential).
# Its version is the Karpenter core version plus a hash of its main.go, so an edited peer is rebuilt.
KSIM_VERSION="$(modver "$KSIM_DIR/go.mod" sigs.k8s.io/karpenter)-$(cat "$KSIM_DIR/main.go" "$KSIM_DIR/go.sum" | sha256sum | cut -c1-12)"
# go-sort: Go's own sort.Slice / sort.SliceStable (packages/capacity's go-sort.e2e.ts): the Go toolchain's version
# plus a hash of its main.go (the algorithm is the toolchain's).
GOSORT_VERSION="$(go env GOVERSION 2>/dev/null || echo go-missing)-$(cat "$GOSORT_DIR/main.go" | sha256sum | cut -c1-8)"
# Remote tools are installed by module@version (their go.mod has no replace directives).
KUBECONFORM_VERSION="v0.7.0"
# Newest commit the Go module proxy serves (a97ccfa, 2026-01-05; embeds k8s <= 1.35 schemas;
# needs Go >= 1.25). @latest would resolve to the 2024 tag v0.0.4.
KUBECTL_VALIDATE_VERSION="v0.0.5-0.20260105161640-a97ccfaca20b"

ALL=(kube-apiserver etcd kubeconform kubectl-validate karpenter-hash karpenter-sim go-sort)

log() { printf '[test-tools] %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

version_of() {
  case "$1" in
    kube-apiserver) echo "$KUBE_VERSION" ;;
    etcd) echo "$ETCD_VERSION" ;;
    kubeconform) echo "$KUBECONFORM_VERSION" ;;
    kubectl-validate) echo "$KUBECTL_VALIDATE_VERSION" ;;
    karpenter-hash) echo "$KARPENTER_VERSION" ;;
    karpenter-sim) echo "$KSIM_VERSION" ;;
    go-sort) echo "$GOSORT_VERSION" ;;
    *) return 1 ;;
  esac
}

# Common flags: static, path-independent binaries; never let GOFLAGS=-mod=mod
# rewrite our go.mod/go.sum; don't stamp the monorepo's git state into binaries.
GO_BUILD_FLAGS=(-trimpath -buildvcs=false)

build_one() { # build_one <name> <output file>
  local name="$1" out="$2"
  case "$name" in
    kube-apiserver)
      local minor="${KUBE_VERSION#v1.}"; minor="${minor%%.*}"
      local pkg=k8s.io/component-base/version cgv=k8s.io/client-go/pkg/version
      (cd "$KUBE_DIR" && GOWORK=off CGO_ENABLED=0 go build "${GO_BUILD_FLAGS[@]}" -mod=readonly \
        -ldflags "-s -w \
          -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor \
          -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z \
          -X $cgv.gitVersion=$KUBE_VERSION -X $cgv.gitMajor=1 -X $cgv.gitMinor=$minor \
          -X $cgv.gitTreeState=clean -X $cgv.buildDate=1970-01-01T00:00:00Z" \
        -o "$out" .)
      ;;
    etcd)
      (cd "$ETCD_DIR" && GOWORK=off CGO_ENABLED=0 go build "${GO_BUILD_FLAGS[@]}" -mod=readonly \
        -ldflags "-s -w" -o "$out" .)
      ;;
    karpenter-hash)
      (cd "$KARPENTER_HASH_DIR" && GOWORK=off GOFLAGS= CGO_ENABLED=0 go build "${GO_BUILD_FLAGS[@]}" -mod=readonly \
        -ldflags "-s -w" -o "$out" .)
      ;;
    karpenter-sim)
      (cd "$KSIM_DIR" && GOWORK=off CGO_ENABLED=0 go build "${GO_BUILD_FLAGS[@]}" -mod=readonly \
        -ldflags "-s -w" -o "$out" .)
      ;;
    go-sort)
      (cd "$GOSORT_DIR" && GOWORK=off GOFLAGS= CGO_ENABLED=0 go build "${GO_BUILD_FLAGS[@]}" -mod=readonly \
        -ldflags "-s -w" -o "$out" .)
      ;;
    kubeconform | kubectl-validate)
      local mod ldflags="-s -w"
      if [[ "$name" == kubeconform ]]; then
        mod="github.com/yannh/kubeconform/cmd/kubeconform@$KUBECONFORM_VERSION"
        ldflags+=" -X main.version=$KUBECONFORM_VERSION"
      else
        mod="sigs.k8s.io/kubectl-validate@$KUBECTL_VALIDATE_VERSION"
      fi
      # go install with GOBIN into a private folder, then move into place.
      local gobin; gobin="$(dirname "$out")/.gobin.$$"
      rm -rf "$gobin"; mkdir -p "$gobin"
      # Run outside any module so the repo's own go.mod/go.work cannot interfere.
      (cd "$gobin" && GOWORK=off GOFLAGS= GOBIN="$gobin" CGO_ENABLED=0 \
        go install "${GO_BUILD_FLAGS[@]}" -ldflags "$ldflags" "$mod")
      mv -f "$gobin/$name" "$out"
      rm -rf "$gobin"
      ;;
  esac
}

ensure() { # ensure <name>; prints the binary's path on stdout
  local name="$1" version dir bin
  version="$(version_of "$name")" || die "unknown tool '$name' (known: ${ALL[*]})"
  [[ -n "$version" ]] || die "could not read the version of $name"
  dir="$CACHE/$name-$version"
  bin="$dir/$name"
  if [[ ! -x "$bin" ]]; then
    mkdir -p "$dir"
    # Serialise concurrent builds of the same tool (e.g. parallel test workers).
    exec 9>"$dir/.lock"
    flock 9
    if [[ ! -x "$bin" ]]; then
      command -v go >/dev/null || die "go is not on PATH (need Go >= 1.26 for kube-apiserver/etcd)"
      log "building $name $version (this can take minutes: see test-tools/README.md) ..."
      local start=$SECONDS tmp="$dir/.$name.tmp.$$"
      if ! build_one "$name" "$tmp"; then
        rm -f "$tmp"; exec 9>&-
        die "build of $name $version failed"
      fi
      mv -f "$tmp" "$bin"
      log "built $name $version in $((SECONDS - start)) s"
    else
      log "reused $name $version (built by a concurrent run)"
    fi
    exec 9>&-
  else
    log "reused $name $version (0 s)"
  fi
  printf '%s\n' "$bin"
}

if [[ "${1:-}" == "--versions" ]]; then
  for t in "${ALL[@]}"; do printf '%s %s\n' "$t" "$(version_of "$t")"; done
  exit 0
fi
if [[ "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 0
fi

tools=("$@")
[[ ${#tools[@]} -gt 0 ]] || tools=("${ALL[@]}")
for t in "${tools[@]}"; do version_of "$t" >/dev/null || die "unknown tool '$t' (known: ${ALL[*]})"; done
for t in "${tools[@]}"; do ensure "$t"; done
