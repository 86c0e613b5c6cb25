"""A model catalog for tests: the real catalog's bundled demo plus one download, the suite's tiny GGUF on a hub.

Point ``STUDYJOBS_CATALOG`` at the file :func:`write_test_catalog` writes, and the ``hub_url`` setting at the
loopback hub that serves ``repo/filename``.
"""

from __future__ import annotations

import json
from pathlib import Path

from core.app.models.catalog import CATALOG_PATH
from devkit.loopback_hub import COMMIT

__all__ = ["COMMIT", "TINY_ID", "TINY_NAME", "write_test_catalog"]

TINY_ID = "tiny-test-model"
TINY_NAME = "Tiny Test Model"


def write_test_catalog(path: Path, repo: str, filename: str) -> Path:
    """Write the catalog at ``path`` and return ``path``: the demo, then ``repo/filename`` as :data:`TINY_ID`."""
    data = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    demo = next(entry for entry in data["models"] if entry.get("bundled"))
    tiny = {
        **demo,
        "id": TINY_ID,
        "name": TINY_NAME,
        "repo": repo,
        "filename": filename,
        "revision": COMMIT,
        "size_bytes": None,
        "sha256": None,
        "checked": "seen",
        "approx_bytes": 2_000_000,
        "bundled": False,
        "demo": False,
        "languages": ["en", "pt"],
        "good_for": "Testing the download in the window.",
    }
    path.write_text(json.dumps({**data, "models": [demo, tiny]}, indent=1), encoding="utf-8")
    return path
