"""A manifest's plain metadata is taken without the Go decoder (``objectmeta.plainly_decodes``),
and only where the decoder would find nothing wrong."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubectl_crd.validation.decoding import object_meta_error
from kubectl_crd.validation.objectmeta import plainly_decodes

TEXT = st.text(max_size=12)
PLAIN = st.fixed_dictionaries(
    {},
    optional={
        "name": TEXT,
        "generateName": TEXT,
        "namespace": TEXT,
        "uid": TEXT,
        "resourceVersion": TEXT,
        "labels": st.dictionaries(TEXT, TEXT, max_size=3),
        "annotations": st.dictionaries(TEXT, TEXT, max_size=3),
        "finalizers": st.lists(TEXT, max_size=3),
    },
)
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=6,
)
FIELDS = st.sampled_from(
    ["name", "namespace", "labels", "annotations", "finalizers", "generation",
     "creationTimestamp", "ownerReferences", "uid", "managedFields", "selfLink"]
)  # fmt: skip


@settings(max_examples=300, deadline=None, derandomize=True)
@given(PLAIN)
def test_plain_metadata_is_what_the_decoder_takes(metadata: dict[str, object]) -> None:
    assert plainly_decodes(metadata)
    assert object_meta_error(metadata) is None


@settings(max_examples=500, deadline=None, derandomize=True)
@given(st.dictionaries(FIELDS, ANY_JSON, max_size=4))
def test_the_decoder_refuses_nothing_taken_as_plain(metadata: dict[str, object]) -> None:
    if plainly_decodes(metadata):
        assert object_meta_error(metadata) is None


@pytest.mark.parametrize(
    "metadata",
    [
        {"name": 1},
        {"labels": {"a": 1}},
        {"labels": {1: "a"}},
        {"finalizers": "x"},
        {"annotations": None},
        {"generation": 1},
        {"creationTimestamp": "2024-01-01T00:00:00Z"},
        {"ownerReferences": []},
    ],
)
def test_anything_else_goes_to_the_decoder(metadata: dict[str, object]) -> None:
    assert not plainly_decodes(metadata)


def test_validating_a_plain_manifest_loads_no_go_types(tmp_path) -> None:  # type: ignore[no-untyped-def]
    manifest = tmp_path / "tab.yaml"
    manifest.write_text(
        "apiVersion: stable.example.com/v1\nkind: CronTab\n"
        "metadata: {name: a, namespace: ns, labels: {app: web}}\n"
        "spec: {cronSpec: '* * * * *', image: i}\n"
    )
    crd = "examples/crds/crontab.yaml"
    script = (
        "import sys\nfrom kubectl_crd.cli.root import main\n"
        "try:\n    main(sys.argv[1:])\nexcept SystemExit as exit:\n    code = exit.code\n"
        "print('decoding' if 'kubectl_crd.validation.decoding' in sys.modules else 'none', code)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "validate", "--offline", "--crd", crd, "-f", str(manifest)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.splitlines()[-1] == "none 0", (done.stdout, done.stderr)
