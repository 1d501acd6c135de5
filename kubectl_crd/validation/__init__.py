"""API-server-equivalent validation of custom resources (built by the validate issue)."""
