"""Where CRDs come from: files, the cluster, and wrappers that combine them, behind one interface."""
