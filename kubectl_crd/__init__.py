"""kubectl-crd: a kubectl plugin and workbench for CustomResourceDefinitions."""

__version__ = "0.1.0"
