"""The local reconcile loop behind ``kubectl crd dev`` (built by the dev-loop issue)."""
