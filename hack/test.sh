#!/usr/bin/env bash
# The whole test suite, from a fresh clone: the README's test command, and what CI runs.
#
# Creates .venv, installs the package with its dev tools, builds the envtest assets
# (kube-apiserver and etcd) when they are missing, then runs lint, types, the layer
# contract, and the unit and integration tests against the real API server.
set -euo pipefail
cd "$(dirname "$0")/.."

# Test-time tools from the system: tmux drives the interactive explain and dev dashboard tests.
if ! command -v tmux >/dev/null 2>&1; then
  echo "== installing tmux" >&2
  { apt-get install -y -q tmux >/dev/null 2>&1 || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q tmux >/dev/null 2>&1; }; } ||
    echo "warning: tmux could not be installed; the explain -i and dev dashboard tests will fail" >&2
fi
# zsh and fish run `kubectl crd completion zsh|fish`'s scripts (tests/unit/cli/
# test_completion_scripts.py skips a shell that is missing)
for shell in zsh fish; do
  if ! command -v "$shell" >/dev/null 2>&1; then
    echo "== installing $shell" >&2
    apt-get install -y -q "$shell" >/dev/null 2>&1 ||
      echo "warning: $shell could not be installed; its completion tests will be skipped" >&2
  fi
done

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[dev]'

# The product's launcher must be on PATH so the real kubectl finds the plugin.
export PATH="$PWD/.venv/bin:$PATH"

echo "== assets" >&2
assets=$(hack/envtest-assets.sh | tail -n 1)
export KUBEBUILDER_ASSETS="$assets"

echo "== ruff" >&2
ruff check kubectl_crd tests bench examples
ruff format --check kubectl_crd tests bench examples
echo "== mypy" >&2
mypy
echo "== import contracts" >&2
lint-imports
echo "== bench (smoke: tiny inputs, no thresholds; peers only where hack/bench-peers.sh built them)" >&2
python bench/run.py --smoke
echo "== pytest" >&2
# whole modules to a worker, in the order tests/conftest.py gives them (the slowest
# first): a module's fixtures (a control plane, the corpus installed) are set up once
# (the 30 slowest phases are listed at the end: tests/conftest.py's SLOWEST_MODULES)
pytest -p no:cacheprovider -n "${PYTEST_WORKERS:-2}" --dist loadfile --no-loadscope-reorder --durations=30 "$@"
