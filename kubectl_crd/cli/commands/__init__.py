"""One module per ``kubectl crd`` command."""
