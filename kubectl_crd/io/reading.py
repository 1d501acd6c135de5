"""Reading the bytes of one file or of stdin, with the error that says why not.

The leaf both ``inputs`` (paths, directories, stdin as documents) and ``caching``
(the parse cache) read through, so that neither imports the other. Nothing here
raises for bad input: a read that fails is an ``InputError`` value.
"""

from __future__ import annotations

import sys

from kubectl_crd.io.documents import Document
from kubectl_crd.model.errors import InputError, Location

TYPE_CHECKING = False  # not typing's: importing typing costs ~2 ms at start-up
if TYPE_CHECKING:
    from typing import BinaryIO

#: The path that stands for standard input, as in ``kubectl -f -``.
STDIN = "-"
#: The name standard input goes by in locations and messages.
STDIN_SOURCE = "<stdin>"


def read_stdin(stdin: BinaryIO | None = None) -> list[Document]:
    """The documents on stdin (``sys.stdin`` unless another stream is given)."""
    from kubectl_crd.io.loading import load_documents

    stream = stdin if stdin is not None else sys.stdin.buffer
    try:
        data = stream.read()
    except OSError as exc:
        error = read_error(STDIN_SOURCE, exc)
        return [Document(STDIN_SOURCE, 0, Location(STDIN_SOURCE), error=error)]
    return load_documents(data, STDIN_SOURCE)


def read_file(path: str) -> bytes | InputError:
    """The bytes of a file, or the error that says why it cannot be read."""
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError as exc:
        return read_error(path, exc)


def read_error(path: str, exc: OSError) -> InputError:
    reason = (exc.strerror or str(exc)).lower()
    return InputError(f"cannot read: {reason}", location=Location(path))
