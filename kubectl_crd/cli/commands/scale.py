"""`kubectl crd scale`: not built yet; the placeholder says so and exits 1."""

from kubectl_crd.cli.placeholder import not_available

command = not_available("scale", "planned, not built yet")
