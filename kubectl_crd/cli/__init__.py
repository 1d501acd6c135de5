"""The command line: the root group with kubectl's global flags and one module per command."""
