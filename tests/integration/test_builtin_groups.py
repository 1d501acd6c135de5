"""``model.gvk.BUILTIN_GROUPS`` is what kube-apiserver serves itself: checked against its discovery.

``kubectl crd validate`` skips a kind of a built-in group and treats any other kind
without a CRD as missing, so the list must be exactly the server's: every group
discovery lists that no CRD defines, the core group as "", plus the groups of alpha
APIs the server serves once they are turned on.
"""

from __future__ import annotations

from kubectl_crd.model.gvk import BUILTIN_GROUPS
from tests.integration.envtest import ControlPlane


def test_builtin_groups_are_the_servers_own(apiserver: ControlPlane) -> None:
    versions = apiserver.kubectl("api-versions").stdout.split()
    served = {version.rpartition("/")[0] for version in versions}
    from_crds = set(
        apiserver.kubectl(
            "get", "customresourcedefinitions", "-o", "jsonpath={.items[*].spec.group}"
        ).stdout.split()
    )
    # Served only where their alpha API is turned on (--runtime-config), and never by a CRD.
    alpha_only = {"storagemigration.k8s.io", "internal.apiserver.k8s.io"}
    assert served - from_crds == BUILTIN_GROUPS - alpha_only
