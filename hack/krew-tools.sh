#!/usr/bin/env bash
# Build krew and validate-krew-manifest for the krew integration tests.
#
# - Builds the version pinned below (sigs.k8s.io/krew, from the Go module proxy) into a
#   cache outside the repository, keyed by version and platform, and reuses that cache
#   when it is already complete (as hack/envtest-assets.sh does for envtest).
# - krew lands as `kubectl-krew`, the name kubectl looks up on PATH for `kubectl krew`.
# - The last line of stdout is always the tools directory; progress goes to stderr.
set -euo pipefail

KREW_VERSION=v0.4.3

log() { printf 'krew-tools: %s\n' "$*" >&2; }

# The platform without Go, so that a cache filled earlier is found on a machine without Go.
goos=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) goarch=amd64 ;;
  aarch64 | arm64) goarch=arm64 ;;
  *) goarch=$(uname -m) ;;
esac
cache_root=${KUBECTL_CRD_KREW_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-crd/krew}
tools="$cache_root/krew-${KREW_VERSION}-${goos}-${goarch}"

print_if_cached() {
  if [ -x "$tools/kubectl-krew" ] && [ -x "$tools/validate-krew-manifest" ]; then
    log "cached: $tools"
    printf '%s\n' "$tools"
    exit 0
  fi
}
print_if_cached

command -v go >/dev/null || { log "error: Go is needed to build krew and was not found on PATH"; exit 2; }

mkdir -p "$cache_root"
# One build at a time (parallel test workers): the others wait and then find it cached.
if command -v flock >/dev/null; then
  exec 9>"$tools.lock"
  flock -n 9 || { log "waiting for another build of $tools"; flock 9; }
  print_if_cached
fi
work=$(mktemp -d "$cache_root/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
export GOFLAGS=-mod=mod CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch"

rm -rf "$tools.partial"
mkdir -p "$tools.partial"
cd "$work"
go mod init krewtools.local >/dev/null 2>&1
go mod edit -require="sigs.k8s.io/krew@${KREW_VERSION}"
printf 'package main\n\nimport (\n\t_ "sigs.k8s.io/krew/cmd/krew"\n\t_ "sigs.k8s.io/krew/cmd/validate-krew-manifest"\n)\n' > tools.go
go mod tidy >/dev/null 2>&1 || true
# krew's version package (internal/version) reports these; a tagged build also skips
# the "development build" paths of krew's upgrade check.
pkg=sigs.k8s.io/krew/internal/version
log "building krew ${KREW_VERSION}"
go build -trimpath -o "$tools.partial/kubectl-krew" \
  -ldflags "-s -w -X $pkg.gitTag=${KREW_VERSION} -X $pkg.gitCommit=release" sigs.k8s.io/krew/cmd/krew
log "building validate-krew-manifest ${KREW_VERSION}"
go build -trimpath -o "$tools.partial/validate-krew-manifest" \
  -ldflags "-s -w" sigs.k8s.io/krew/cmd/validate-krew-manifest
rm -rf "$tools"
mv "$tools.partial" "$tools"
log "built: $tools"
printf '%s\n' "$tools"
