"""The Foo example (``examples/foo``) copied for a dev-loop test, and the manifests
that make one of its Foos fail: a Deployment that is someone else's (``TAKEN``) and a
Foo that wants it (``GREEDY``), which the reconciler answers with a ``TerminalError``.
Shared by the trigger tests and the dashboard's tmux tests."""

from __future__ import annotations

import shutil
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "foo"

#: a Deployment no Foo owns
TAKEN = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: taken
  namespace: default
spec:
  selector: {matchLabels: {app: x}}
  template:
    metadata: {labels: {app: x}}
    spec: {containers: [{name: x, image: x}]}
"""

#: a Foo whose deploymentName is TAKEN's: its reconcile raises TerminalError
GREEDY = """\
apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata:
  name: greedy
  namespace: default
spec:
  deploymentName: taken
  replicas: 1
"""

#: the example's Foo name again, in another namespace
OTHER_FOO = """\
apiVersion: samplecontroller.k8s.io/v1alpha1
kind: Foo
metadata:
  name: example-foo
  namespace: other
spec:
  deploymentName: other-foo
  replicas: 1
"""


def copy_foo(directory: Path) -> Path:
    """The example copied to ``directory`` (made), which is returned."""
    shutil.copytree(EXAMPLE, directory)
    return directory
