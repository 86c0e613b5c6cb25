"""The stored form of a sentence for the user: a code with its values (:func:`encode`), translated only when someone
reads it. :func:`decode` gives ``None`` for any text that is not an encoded message (design: docs/design/jobs.md).

Pure functions over plain data; thread-safe.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

__all__ = ["StoredMessage", "decode", "encode"]

_ENCODED_START = '{"code":'
_JSON_SCALARS = (str, int, float, bool, type(None))


@dataclass(frozen=True)
class StoredMessage:
    """An encoded message read back: its ``code`` and the ``values`` its sentence needs."""

    code: str
    values: Mapping[str, Any] = field(default_factory=dict)


def encode(code: str, /, **values: object) -> str:
    """The text to store for ``code`` with ``values``: ``{"code":"…","values":{…}}`` (compact JSON, UTF-8 kept).

    A value that JSON cannot hold as it is (a path, a UUID …) is stored as its ``str``.
    """
    safe = {key: value if isinstance(value, _JSON_SCALARS) else str(value) for key, value in values.items()}
    return json.dumps({"code": code, "values": safe}, ensure_ascii=False, separators=(",", ":"))


def decode(stored: str | None) -> StoredMessage | None:
    """The code and values of an :func:`encode`\\ d text; ``None`` for plain text, ``None`` or anything else."""
    if not stored or not stored.startswith(_ENCODED_START):
        return None
    try:
        data = json.loads(stored)
    except ValueError:
        return None
    if not isinstance(data, dict) or not set(data) <= {"code", "values"}:
        return None
    code, values = data.get("code"), data.get("values", {})
    if not isinstance(code, str) or not isinstance(values, dict):
        return None
    return StoredMessage(code, MappingProxyType(values))
