"""The only package that talks to the Kubernetes API (and the only importer of ``kubernetes``)."""
