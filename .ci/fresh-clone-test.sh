#!/usr/bin/env bash
# CI stage: the README's `pnpm test`, run as a new user would on a fresh machine with Node and pnpm only:
# a fresh clone of this checkout's HEAD, run by a user who is not root (`nobody` when CI runs as root),
# `pnpm install --frozen-lockfile`, a `python3` first on PATH that has no moto, an empty cache (XDG_CACHE_HOME: no
# schemas, no test peers), and the schemas served from the mirror folder as a URL on 127.0.0.1 by a small Node
# server. Usage: .ci/fresh-clone-test.sh MIRROR_FOLDER
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
mirror_dir="$(cd "${1:?usage: fresh-clone-test.sh MIRROR_FOLDER}" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/eks-gitops-fresh-clone.XXXXXX")"
# readable by others, as a checkout usually is (a validate test reads it as `nobody`)
chmod 755 "$work"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

git clone --quiet --no-hardlinks "$checkout" "$work/repo"

# python3 and python: a venv without moto (no pip, no site-packages), as on a machine where nobody installed it
mkdir -p "$work/bin"
python3 -m venv --without-pip "$work/venv"
for name in python3 python; do
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$work/venv/bin/python3" > "$work/bin/$name"
  chmod +x "$work/bin/$name"
done
if PATH="$work/bin:$PATH" python3 -c "import moto" 2>/dev/null; then
  echo "fresh-clone-test: the python3 shim can import moto; the stage would not prove anything" >&2
  exit 1
fi

# the schema mirror as a URL on 127.0.0.1
node "$checkout/.ci/serve-mirror.mjs" "$mirror_dir" > "$work/mirror-url" &
server_pid=$!
for _ in $(seq 1 100); do
  [ -s "$work/mirror-url" ] && break
  sleep 0.1
done
mirror_url="$(head -n 1 "$work/mirror-url")"
[ -n "$mirror_url" ] || { echo "fresh-clone-test: the mirror server did not start" >&2; exit 1; }

# A new user is not root: root reads files of mode 000, writes anywhere and owns every folder, so a test that leans
# on that passes here and fails for the user. Run as root (as CI is), the clone is handed to `nobody` and the
# stage runs as `nobody`, with a home of its own (the pnpm store, git's and npm's settings); run as another user, as
# that user. The main `pnpm test` of .ci/run stays root's (tests that drop to `nobody` themselves need root). Its
# pnpm store is in that home, empty as a new user's: every package is downloaded from the registry each time.
home="$HOME"
as_user=()
if [ "$(id -u)" = 0 ]; then
  if ! id nobody >/dev/null 2>&1 || ! command -v setpriv >/dev/null 2>&1; then
    echo "fresh-clone-test: run as root, and no \`nobody\` user or no setpriv to run the stage as a user who is not" >&2
    exit 1
  fi
  home="$work/home"
  mkdir -p "$home" "$work/cache"
  chown -R nobody "$work/repo" "$home" "$work/cache"
  as_user=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups --)
  if ! "${as_user[@]}" true; then
    echo "fresh-clone-test: setpriv cannot run a command as \`nobody\` here (no CAP_SETUID, or a user namespace without it)" >&2
    exit 1
  fi
  if ! "${as_user[@]}" env -i "HOME=$home" "PATH=$PATH" pnpm --version >/dev/null 2>&1; then
    echo "fresh-clone-test: \`nobody\` cannot run pnpm ($(command -v pnpm)): install Node and pnpm where every user can run them" >&2
    exit 1
  fi
  if ! "${as_user[@]}" test -w "$work/repo"; then
    echo "fresh-clone-test: \`nobody\` cannot reach $work (a folder above it is closed to others); set TMPDIR to a folder it can" >&2
    exit 1
  fi
fi

# a new user's shell: nothing of this CI run's environment (no CI switches, no AWS_SDK_* settings, no moto Python)
user_env=(${as_user[@]+"${as_user[@]}"} env -i "HOME=$home" "PATH=$work/bin:$PATH" "LANG=${LANG:-C.UTF-8}" "TERM=dumb"
  "XDG_CACHE_HOME=$work/cache" "EKS_GITOPS_MIRROR=$mirror_url")
cd "$work/repo"
echo "fresh clone in $work/repo as $(${as_user[@]+"${as_user[@]}"} id -un); python3 without moto first on PATH; empty cache; EKS_GITOPS_MIRROR=$mirror_url"
"${user_env[@]}" pnpm install --frozen-lockfile
"${user_env[@]}" pnpm test
