"""Writing reports: atomically, and never over a file without being told to.

A report is written to a temporary file in the same folder and moved into place in one step,
so a crash or a full disk never leaves a half-written file where a good one was. Existing files
are replaced only when the caller says so, and never when they are one of the inputs.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from mtgui.engine.errors import InputError


def check_writable(path: Path, overwrite: bool, inputs: Collection[Path] = ()) -> None:
    """Refuse to write over an input file, or over an existing file unless ``overwrite``."""
    resolved = path.resolve()
    if any(resolved == Path(p).resolve() for p in inputs):
        raise InputError(
            "this is one of the input files; mtgui will not write over it.",
            path=path,
            hint="Choose another output file.",
        )
    if path.exists() and not overwrite:
        raise InputError(
            "the file already exists.",
            path=path,
            hint="Choose another name, or allow replacing it (--overwrite).",
        )
    if not path.parent.exists():
        raise InputError("the folder to write into does not exist.", path=path)


def write_text_atomic(path: Path, text: str, bom: bool = False) -> None:
    """Write ``text`` (UTF-8, with a byte-order mark if ``bom``) to ``path`` in one step."""
    write_bytes_atomic(path, text.encode("utf-8-sig" if bom else "utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` in one step (a temporary file moved into place)."""
    temporary: Path | None = None
    try:
        with tempfile.NamedTemporaryFile(
            "wb", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
        ) as handle:
            temporary = Path(handle.name)
            handle.write(data)
        os.replace(temporary, path)
    except OSError as error:
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        raise InputError(f"the file could not be written ({error.strerror}).", path=path) from None


def json_text(data: Any) -> str:
    """Pretty JSON with a final newline (NaN must already be None)."""
    return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """CSV with a header line; floats in full precision."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
