#!/usr/bin/env bash
# Smoke test of the kube test peers: starts etcd and kube-apiserver on 127.0.0.1
# (free ports, temp dirs), waits for /readyz, runs a few requests, and shuts both
# down again. Test tooling only. The flag set here is the one documented in
# test-tools/README.md ("Running kube-apiserver + etcd"); keep the two in step.
#
# Usage: test-tools/smoke.sh            # builds the binaries first if needed
# Env:   SMOKE_KEEP=1  keep running until Ctrl-C (prints URL and token)
#        SMOKE_APISERVER_EXTRA_FLAGS="--flag=value ..."  extra kube-apiserver flags (word-split)
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mapfile -t BINS < <("$HERE/build.sh" kube-apiserver etcd)
APISERVER="${BINS[0]}"
ETCD="${BINS[1]}"

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }

# A free TCP port on 127.0.0.1. Ports are drawn from BELOW the kernel's ephemeral range
# (ip_local_port_range, usually 32768-60999): an ephemeral port can be taken at any moment by
# an outgoing connection, which a connect probe cannot see (etcd then fails with
# "bind: address already in use"). A tiny race with other listeners remains.
EPH_LOW="$(awk '{print $1}' /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || echo 32768)"
used_ports=" "
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((10000 + RANDOM % (EPH_LOW - 10000)))
    [[ "$used_ports" == *" $p "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      used_ports+="$p "; echo "$p"; return 0
    fi
  done
  echo "no free port found" >&2; return 1
}

TMP="$(mktemp -d "${TMPDIR:-/tmp}/kube-smoke.XXXXXX")"
ETCD_PID="" APISERVER_PID=""
cleanup() {
  local rc=$?
  # SIGKILL: the data is throw-away, and a graceful stop costs ~3 s (apiserver) + ~2 s (etcd).
  [[ -n "$APISERVER_PID" ]] && kill -9 "$APISERVER_PID" 2>/dev/null || true
  [[ -n "$ETCD_PID" ]] && kill -9 "$ETCD_PID" 2>/dev/null || true
  [[ -n "$APISERVER_PID" ]] && wait "$APISERVER_PID" 2>/dev/null || true
  [[ -n "$ETCD_PID" ]] && wait "$ETCD_PID" 2>/dev/null || true
  if [[ $rc -ne 0 ]]; then
    echo "--- etcd.log (tail)" >&2; tail -n 20 "$TMP/etcd.log" >&2 2>/dev/null || true
    echo "--- apiserver.log (tail)" >&2; tail -n 40 "$TMP/apiserver.log" >&2 2>/dev/null || true
  fi
  rm -rf "$TMP"
  exit $rc
}
trap cleanup EXIT INT TERM

# Service-account key pair and a static token file (user in system:masters = full access).
openssl genrsa -out "$TMP/sa.key" 2048 2>/dev/null
openssl rsa -in "$TMP/sa.key" -pubout -out "$TMP/sa.pub" 2>/dev/null
TOKEN="test-admin-token-$RANDOM$RANDOM"
echo "$TOKEN,test-admin,test-admin-uid,\"system:masters\"" >"$TMP/tokens.csv"
mkdir -p "$TMP/etcd-data" "$TMP/certs"

ETCD_CLIENT_PORT="$(free_port)"
ETCD_PEER_PORT="$(free_port)"
API_PORT="$(free_port)"
ETCD_URL="http://127.0.0.1:$ETCD_CLIENT_PORT"
PEER_URL="http://127.0.0.1:$ETCD_PEER_PORT"

t0="$(now)"
"$ETCD" \
  --name=test \
  --data-dir="$TMP/etcd-data" \
  --listen-client-urls="$ETCD_URL" \
  --advertise-client-urls="$ETCD_URL" \
  --listen-peer-urls="$PEER_URL" \
  --initial-advertise-peer-urls="$PEER_URL" \
  --initial-cluster="test=$PEER_URL" \
  --initial-cluster-state=new \
  --unsafe-no-fsync \
  --log-level=warn \
  >"$TMP/etcd.log" 2>&1 &
ETCD_PID=$!
for _ in $(seq 1 100); do curl -sf "$ETCD_URL/health" >/dev/null && break; sleep 0.1; done
curl -sf "$ETCD_URL/health" >/dev/null || { echo "etcd did not become healthy" >&2; exit 1; }
echo "etcd healthy after $(since "$t0") s ($ETCD_URL)"

t1="$(now)"
"$APISERVER" \
  --etcd-servers="$ETCD_URL" \
  --bind-address=127.0.0.1 \
  --advertise-address=127.0.0.1 \
  --secure-port="$API_PORT" \
  --cert-dir="$TMP/certs" \
  --token-auth-file="$TMP/tokens.csv" \
  --authorization-mode=RBAC \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$TMP/sa.pub" \
  --service-account-signing-key-file="$TMP/sa.key" \
  --service-cluster-ip-range=10.0.0.0/24 \
  --endpoint-reconciler-type=none \
  --disable-admission-plugins=ServiceAccount \
  ${SMOKE_APISERVER_EXTRA_FLAGS:-} \
  >"$TMP/apiserver.log" 2>&1 &
APISERVER_PID=$!

URL="https://127.0.0.1:$API_PORT"
AUTH="Authorization: Bearer $TOKEN"
code=000
for _ in $(seq 1 600); do
  code="$(curl -sk -o /dev/null -w '%{http_code}' -H "$AUTH" "$URL/readyz" || true)"
  [[ "$code" == 200 ]] && break
  kill -0 "$APISERVER_PID" 2>/dev/null || { echo "kube-apiserver exited" >&2; exit 1; }
  sleep 0.1
done
[[ "$code" == 200 ]] || { echo "kube-apiserver not ready after 60 s (last /readyz: $code)" >&2; exit 1; }
echo "kube-apiserver ready after $(since "$t1") s ($URL)"

check() { # check <name> <expected code> <curl args...>
  local name="$1" want="$2"; shift 2
  local got; got="$(curl -sk -o "$TMP/out.json" -w '%{http_code}' "$@")"
  if [[ "$got" == "$want" ]]; then echo "ok   $name ($got)"; else
    echo "FAIL $name: want $want, got $got" >&2; cat "$TMP/out.json" >&2; exit 1; fi
}
check "version" 200 -H "$AUTH" "$URL/version"
grep -q '"gitVersion": "v1.36' "$TMP/out.json" || { echo "unexpected /version" >&2; cat "$TMP/out.json" >&2; exit 1; }
check "anonymous list namespaces is forbidden" 403 "$URL/api/v1/namespaces"
check "list namespaces" 200 -H "$AUTH" "$URL/api/v1/namespaces"
check "server-side apply dry-run Deployment" 201 -X PATCH -H "$AUTH" \
  -H 'Content-Type: application/apply-patch+yaml' \
  "$URL/apis/apps/v1/namespaces/default/deployments/web?fieldManager=smoke&dryRun=All" \
  --data-binary '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}'
check "server-side apply dry-run Pod" 201 -X PATCH -H "$AUTH" \
  -H 'Content-Type: application/apply-patch+yaml' \
  "$URL/api/v1/namespaces/default/pods/p?fieldManager=smoke&dryRun=All" \
  --data-binary '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}'
check "create CRD with a CEL rule" 201 -X POST -H "$AUTH" -H 'Content-Type: application/json' \
  "$URL/apis/apiextensions.k8s.io/v1/customresourcedefinitions" \
  --data-binary '{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},"spec":{"group":"example.com","names":{"kind":"Widget","plural":"widgets"},"scope":"Namespaced","versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"type":"integer"}},"x-kubernetes-validations":[{"rule":"self.size < 10","message":"too big"}]}}}}}]}}'
for _ in $(seq 1 100); do
  [[ "$(curl -sk -o /dev/null -w '%{http_code}' -H "$AUTH" "$URL/apis/example.com/v1/namespaces/default/widgets")" == 200 ]] && break
  sleep 0.1
done
check "CEL rule rejects a custom resource" 422 -X POST -H "$AUTH" -H 'Content-Type: application/json' \
  "$URL/apis/example.com/v1/namespaces/default/widgets" \
  --data-binary '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"size":20}}'
grep -q 'too big' "$TMP/out.json" || { echo "CEL message missing" >&2; cat "$TMP/out.json" >&2; exit 1; }

if [[ "${SMOKE_KEEP:-}" == 1 ]]; then
  echo "running: KUBE_API_URL=$URL KUBE_TOKEN=$TOKEN (Ctrl-C to stop)"
  wait "$APISERVER_PID"
fi
echo "smoke: 7 passed, 0 failed"
