"""Connection settings: kubeconfig file, context, namespace and request timeout.

Pure data plus parsing; the ``kubernetes`` package is only imported when a client is
actually built (see ``client.py``), so holding a ``ClusterConfig`` costs nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kubectl_crd.model.errors import UsageError

_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)")
_UNIT_SECONDS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0, "m": 60.0, "h": 3600.0}


def parse_request_timeout(value: str | None) -> float | None:
    """kubectl's ``--request-timeout``: a bare integer means seconds, else a Go duration; 0 means none."""
    if value is None or value.strip() in ("", "0"):
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    position = 0
    total = 0.0
    for match in _DURATION_PART.finditer(text):
        if match.start() != position:
            break
        total += float(match.group(1)) * _UNIT_SECONDS[match.group(2)]
        position = match.end()
    if position != len(text) or position == 0:
        raise UsageError(
            f"invalid timeout value. Timeout must be a single integer in seconds, "
            f"or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h): {value}"
        )
    return total or None


@dataclass(frozen=True)
class ClusterConfig:
    kubeconfig: str | None = None
    context: str | None = None
    namespace: str | None = None
    request_timeout: str | None = None

    @property
    def timeout_seconds(self) -> float | None:
        return parse_request_timeout(self.request_timeout)
