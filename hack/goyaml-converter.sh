#!/usr/bin/env bash
# Build goyaml-verdict (hack/goyaml): what kubectl's YAML reading (go-yaml v2 through
# sigs.k8s.io/yaml, documents split as k8s.io/apimachinery does) makes of a stream. It is
# the oracle of tests/unit/io/test_goyaml_differential.py.
#
# - If KUBECTL_CRD_GOYAML_VERDICT names an executable, use it as is.
# - Otherwise build hack/goyaml, whose go.mod and go.sum pin the module versions (the
#   Kubernetes release of hack/envtest-versions.env), from the Go module proxy into a
#   cache outside the repository, keyed by the source's digest, and reuse that cache
#   when it already holds the binary.
# - The last line of stdout is always the binary's path; progress goes to stderr.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src="$here/goyaml"

log() { printf 'goyaml-converter: %s\n' "$*" >&2; }

if [ -n "${KUBECTL_CRD_GOYAML_VERDICT:-}" ]; then
  if [ -x "$KUBECTL_CRD_GOYAML_VERDICT" ]; then
    log "using KUBECTL_CRD_GOYAML_VERDICT=$KUBECTL_CRD_GOYAML_VERDICT"
    printf '%s\n' "$KUBECTL_CRD_GOYAML_VERDICT"
    exit 0
  fi
  log "KUBECTL_CRD_GOYAML_VERDICT=$KUBECTL_CRD_GOYAML_VERDICT is not executable; building our own"
fi

goos=$(uname -s | tr '[:upper:]' '[:lower:]')
case $(uname -m) in
  x86_64 | amd64) goarch=amd64 ;;
  aarch64 | arm64) goarch=arm64 ;;
  *) goarch=$(uname -m) ;;
esac
# The source's digest: a change to main.go or a version bump in go.mod builds anew.
digest=$(cat "$src/go.mod" "$src/go.sum" "$src/main.go" | sha256sum | cut -c1-16)
cache_root=${KUBECTL_CRD_GOYAML_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-crd/goyaml}
binary="$cache_root/goyaml-verdict-${digest}-${goos}-${goarch}"

print_if_cached() {
  if [ -x "$binary" ]; then
    log "cached: $binary"
    printf '%s\n' "$binary"
    exit 0
  fi
}
print_if_cached

command -v go >/dev/null || { log "error: Go is needed to build goyaml-verdict and was not found on PATH"; exit 2; }

mkdir -p "$cache_root"
# One build at a time (parallel test workers): the others wait, then find it cached.
if command -v flock >/dev/null; then
  exec 9>"$binary.lock"
  flock -n 9 || { log "waiting for another build of $binary"; flock 9; }
  print_if_cached
fi
work=$(mktemp -d "$cache_root/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Build in a copy, so that the repository's go.mod and go.sum are never rewritten.
cp "$src/go.mod" "$src/go.sum" "$src/main.go" "$work/"
cd "$work"
export GOFLAGS=-mod=mod CGO_ENABLED=0 GOOS="$goos" GOARCH="$goarch"
log "building goyaml-verdict ($digest)"
go build -trimpath -ldflags "-s -w" -o "$binary.partial" .
mv "$binary.partial" "$binary"
log "built: $binary"
printf '%s\n' "$binary"
