#!/usr/bin/env bash
# Make envtest-style assets (kube-apiserver and etcd) for the integration tests.
#
# - If KUBEBUILDER_ASSETS is set and holds both binaries, use it as is.
# - Otherwise build the versions pinned in hack/envtest-versions.env from the Go
#   module proxy into a cache outside the repository, keyed by version, and reuse
#   that cache when it is already complete.
# - The last line of stdout is always the assets directory; progress goes to stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=envtest-versions.env
. "$here/envtest-versions.env"

log() { printf 'envtest-assets: %s\n' "$*" >&2; }

if [ -n "${KUBEBUILDER_ASSETS:-}" ]; then
  if [ -x "$KUBEBUILDER_ASSETS/kube-apiserver" ] && [ -x "$KUBEBUILDER_ASSETS/etcd" ]; then
    log "using KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS"
    printf '%s\n' "$KUBEBUILDER_ASSETS"
    exit 0
  fi
  log "KUBEBUILDER_ASSETS=$KUBEBUILDER_ASSETS lacks kube-apiserver or etcd; building our own"
fi

# The platform without Go, so that a cache filled earlier is found on a machine without Go.
goos=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) goarch=amd64 ;;
  aarch64 | arm64) goarch=arm64 ;;
  *) goarch=$(uname -m) ;;
esac
cache_root=${KUBECTL_CRD_ENVTEST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-crd/envtest}
# The recipe's tag changes whenever the same versions are built differently, so that a
# cache built the old way is not taken for the new (r2: the releases' GODEBUG defaults).
recipe=r2
assets="$cache_root/k8s-${KUBERNETES_VERSION}-etcd-${ETCD_VERSION}-${recipe}-${goos}-${goarch}"

print_if_cached() {
  if [ -x "$assets/kube-apiserver" ] && [ -x "$assets/etcd" ]; then
    log "cached: $assets"
    printf '%s\n' "$assets"
    exit 0
  fi
}
print_if_cached

command -v go >/dev/null || { log "error: Go is needed to build the test assets and was not found on PATH"; exit 2; }

mkdir -p "$cache_root"
# One build at a time (parallel test workers, two checkouts): the others wait for it
# and then find it cached, instead of clobbering each other's $assets.partial.
if command -v flock >/dev/null; then
  exec 9>"$assets.lock"
  flock -n 9 || { log "waiting for another build of $assets"; flock 9; }
  print_if_cached
fi
work=$(mktemp -d "$cache_root/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Build for the platform named in $assets, whatever GOOS/GOARCH the environment sets.
export GOFLAGS=-mod=mod CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch"

# The go.mod of a module version ($1: path@version), from the module cache.
released_gomod() {
  go mod download -json "$1" | sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p'
}

# A release is built with its own go.mod as the main module, whose `godebug` lines (or,
# without a `default=` one, its `go` line) fix the binary's GODEBUG defaults
# (cmd/go/internal/load/godebug.go, defaultGODEBUG). A wrapper made by `go mod init` has
# the local Go's instead: with Go 1.26, url.Parse's urlstrictcolons=1 refuses the
# conversion webhook URL https://a:1:2/ that a v1.34 release (default=go1.24) accepts.
# So the wrapper in the current directory takes the settings of $1@$2's go.mod.
copy_godebug() {
  local gomod released settings setting
  gomod=$(released_gomod "$1@$2")
  released=$(go mod edit -print "$gomod")
  settings=$(printf '%s\n' "$released" | awk '
    $1 == "godebug" && $2 == "(" { block = 1; next }
    block && $1 == ")" { block = 0; next }
    block && $1 ~ /=/ { print $1; next }
    $1 == "godebug" && $2 ~ /=/ { print $2 }')
  if ! printf '%s\n' "$settings" | grep -q '^default='; then
    settings="default=go$(printf '%s\n' "$released" | awk '$1 == "go" { print $2 }')
$settings"
  fi
  for setting in $settings; do
    go mod edit -godebug="$setting"
  done
  log "$1 $2: godebug" $settings
}

build_kube_apiserver() {
  local dir="$work/kube-apiserver" k8s_mod staging minor
  mkdir -p "$dir" && cd "$dir"
  go mod init envtest.local/kube-apiserver >/dev/null 2>&1
  k8s_mod=$(released_gomod "k8s.io/kubernetes@${KUBERNETES_VERSION}")
  # k8s.io/kubernetes points its staging modules at ./staging/src/...; outside its
  # repository they must come from their published v0.X.Y twins of the same release.
  staging="v0.${KUBERNETES_VERSION#v1.}"
  go mod edit -require="k8s.io/kubernetes@${KUBERNETES_VERSION}"
  copy_godebug k8s.io/kubernetes "$KUBERNETES_VERSION"
  sed -n 's/^[[:space:]]*\(k8s\.io\/[a-z0-9-]*\) => \.\/staging\/.*/\1/p' "$k8s_mod" | while read -r mod; do
    go mod edit -replace="${mod}=${mod}@${staging}"
  done
  printf 'package main\n\nimport _ "k8s.io/kubernetes/cmd/kube-apiserver"\n' > tools.go
  go mod tidy >/dev/null 2>&1 || true
  minor=${KUBERNETES_VERSION#v1.}; minor=${minor%%.*}
  local pkg=k8s.io/component-base/version
  go build -trimpath -o "$assets.partial/kube-apiserver" -ldflags "-s -w \
    -X $pkg.gitVersion=${KUBERNETES_VERSION} -X $pkg.gitMajor=1 -X $pkg.gitMinor=${minor} \
    -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z" \
    k8s.io/kubernetes/cmd/kube-apiserver
}

build_etcd() {
  local dir="$work/etcd"
  mkdir -p "$dir" && cd "$dir"
  go mod init envtest.local/etcd >/dev/null 2>&1
  go mod edit -require="go.etcd.io/etcd/server/v3@${ETCD_VERSION}"
  copy_godebug go.etcd.io/etcd/server/v3 "$ETCD_VERSION"
  printf 'package main\n\nimport _ "go.etcd.io/etcd/server/v3"\n' > tools.go
  go mod tidy >/dev/null 2>&1 || true
  go build -trimpath -o "$assets.partial/etcd" -ldflags "-s -w" go.etcd.io/etcd/server/v3
}

rm -rf "$assets.partial"
mkdir -p "$assets.partial"
log "building kube-apiserver ${KUBERNETES_VERSION} (several minutes on a cold Go cache)"
build_kube_apiserver
log "building etcd ${ETCD_VERSION}"
build_etcd
rm -rf "$assets"
mv "$assets.partial" "$assets"
log "built: $assets"
printf '%s\n' "$assets"
