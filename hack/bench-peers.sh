#!/usr/bin/env bash
# Builds the peers that bench/ measures us against, from the Go module proxy, into a cache
# outside the repository, and prints that directory on its last line:
#   bin/kubeconform, bin/kubectl-validate, and kubeconform's own CRD-to-JSON-Schema
#   converter (scripts/openapi2jsonschema.py, from its module) as openapi2jsonschema.py.
# Nothing is committed; a second run reuses what is there. Needs Go.
set -euo pipefail
cache=${KUBECTL_CRD_BENCH_PEERS:-$HOME/.cache/kubectl-crd/bench-peers}
kubeconform_version=${KUBECONFORM_VERSION:-v0.8.0}
kubectl_validate_version=${KUBECTL_VALIDATE_VERSION:-v0.0.4}
mkdir -p "$cache/bin"
export GOBIN="$cache/bin"
if [ ! -x "$cache/bin/kubeconform" ]; then
  echo "bench-peers: building kubeconform $kubeconform_version" >&2
  go install "github.com/yannh/kubeconform/cmd/kubeconform@$kubeconform_version"
fi
if [ ! -x "$cache/bin/kubectl-validate" ]; then
  echo "bench-peers: building kubectl-validate $kubectl_validate_version (several minutes)" >&2
  go install "sigs.k8s.io/kubectl-validate@$kubectl_validate_version"
fi
if [ ! -f "$cache/openapi2jsonschema.py" ]; then
  dir=$(cd "${TMPDIR:-/tmp}" && go mod download -json "github.com/yannh/kubeconform@$kubeconform_version" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp "$dir/scripts/openapi2jsonschema.py" "$cache/openapi2jsonschema.py"
fi
echo "$cache"
