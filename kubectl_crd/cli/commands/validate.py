"""`kubectl crd validate`: not built yet; the placeholder says so and exits 1."""

from kubectl_crd.cli.placeholder import not_available

command = not_available("validate", "planned, not built yet")
