"""Coverage-guided fuzzing of the YAML readers with atheris (optional; not run in CI).

The same property as ``test_fuzz_yaml.py`` (hypothesis, in CI): for any bytes,
``io.loading.load_documents`` (both builds) gives documents or one-line errors and agrees
with itself, and where the block reader answers it gives the full loader's documents.
Here libFuzzer mutates real manifests (every YAML file of examples/) guided by the
coverage of ``kubectl_crd.io`` and ruamel.yaml; a failed assertion or any exception is
a crash (libFuzzer saves the input), ``-timeout`` catches a hang and ``-rss_limit_mb``
a memory blow-up.

atheris is not a dependency: it ships wheels for CPython up to 3.11 on Linux x86_64
(atheris 3.0.0; 3.1.0 has none for 3.11 here), so install it beside the project:

    .venv/bin/pip install --target /tmp/atheris atheris==3.0.0
    PYTHONPATH=/tmp/atheris .venv/bin/python tests/unit/fuzz/atheris_yaml.py \\
        -max_total_time=300 -timeout=10 -rss_limit_mb=2048 [CORPUS_DIR]

Pure-Python coverage needs no clang (atheris instruments the bytecode on import).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import atheris  # type: ignore[import-not-found]

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO))

with atheris.instrument_imports(include=["kubectl_crd.io", "ruamel"]):
    from tests.unit.fuzz.test_fuzz_yaml import SEEDS, _read_all_ways

#: how many inputs ran (printed at exit)
RUNS = [0]


def one_input(data: bytes) -> None:
    RUNS[0] += 1
    _read_all_ways(data)


def main() -> None:
    argv = list(sys.argv)
    if not any(not arg.startswith("-") for arg in argv[1:]):
        # no corpus given: start from the examples' manifests
        corpus = Path(tempfile.mkdtemp(prefix="atheris-yaml-"))
        for index, seed in enumerate(SEEDS):
            (corpus / f"seed-{index}.yaml").write_bytes(seed)
        argv.append(str(corpus))
    atheris.Setup(argv, one_input)
    try:
        atheris.Fuzz()
    finally:
        print(f"atheris_yaml: {RUNS[0]} inputs", file=sys.stderr)


if __name__ == "__main__":
    main()
