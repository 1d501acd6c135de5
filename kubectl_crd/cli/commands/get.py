"""`kubectl crd get`: not built yet; the placeholder says so and exits 1."""

from kubectl_crd.cli.placeholder import not_available

command = not_available("get", "planned, not built yet")
