"""``studyjobs models check``: every catalog entry against what the model hub says of it (file at the pinned commit,
size, sha256, licence, gate). Exit 0 when every entry matches, 1 on any mismatch (docs/design/models.md).

Blocking I/O (``httpx``); call from any one thread.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from core.app.exit_codes import EXIT_FAILED, EXIT_OK
from core.app.messages.sentences import message
from core.app.models.catalog import CatalogModel
from core.app.models.library import library_catalog
from core.app.settings.config import Settings

__all__ = ["EntryCheck", "HubFacts", "check_catalog", "check_command", "check_lines", "hub_facts", "licence_tag"]

TIMEOUT_SECONDS = 20.0


@dataclass(frozen=True)
class HubFacts:
    """What the hub says of one entry's file at its pinned commit (``status`` is the API's HTTP answer)."""

    status: int
    exists: bool = False
    size: int | None = None
    sha256: str | None = None
    licence: str | None = None
    gated: str | None = None
    """``None`` when not gated, else the hub's kind of gate (``auto``, ``manual``)."""


@dataclass(frozen=True)
class EntryCheck:
    """One entry's check: the hub's facts (``None`` for the bundled demo or when the hub could not be asked) and
    the mismatches, each a message code and its values."""

    model: CatalogModel
    facts: HubFacts | None
    problems: list[tuple[str, dict[str, object]]] = field(default_factory=list)


def licence_tag(licence: str) -> str:
    """A licence name as the hub tags it: ``"Apache 2.0"`` → ``"apache-2.0"``."""
    return re.sub(r"[\s_]+", "-", licence.strip().lower())


def _api_url(hub_url: str, model: CatalogModel) -> str:
    return f"{hub_url.rstrip('/')}/api/models/{quote(model.repo, safe='/')}/revision/{quote(model.revision, safe='')}"


def _hub_licence(info: dict[str, Any]) -> str | None:
    card = info.get("cardData")
    licence = card.get("license") if isinstance(card, dict) else None
    if isinstance(licence, list):
        licence = licence[0] if licence else None
    if isinstance(licence, str) and licence:
        return licence.lower()
    tags = info.get("tags")
    if not isinstance(tags, list):
        return None
    return next((str(tag)[8:].lower() for tag in tags if str(tag).startswith("license:")), None)


def hub_facts(client: httpx.Client, hub_url: str, model: CatalogModel) -> HubFacts:
    """Ask the hub about ``model``'s file at its pinned commit. Raises ``httpx.HTTPError`` when it cannot be asked."""
    response = client.get(_api_url(hub_url, model), params={"blobs": "true"})
    if response.status_code >= 400:
        return HubFacts(status=response.status_code)
    info = response.json()
    gated = info.get("gated")
    siblings = info.get("siblings") if isinstance(info.get("siblings"), list) else []
    sibling = next((s for s in siblings if isinstance(s, dict) and s.get("rfilename") == model.filename), None)
    facts = HubFacts(status=response.status_code, licence=_hub_licence(info), gated=str(gated) if gated else None)
    if sibling is None:
        return facts
    lfs = sibling.get("lfs")
    lfs = lfs if isinstance(lfs, dict) else {}
    size = lfs.get("size", sibling.get("size"))
    sha256 = lfs.get("sha256")
    return HubFacts(
        status=facts.status,
        exists=True,
        size=size if isinstance(size, int) else None,
        sha256=sha256.lower() if isinstance(sha256, str) else None,
        licence=facts.licence,
        gated=facts.gated,
    )


def _problems(model: CatalogModel, facts: HubFacts) -> list[tuple[str, dict[str, object]]]:
    where: dict[str, object] = {"model": model.id}
    if not facts.exists:
        code = "model_check_missing" if facts.status < 400 else "model_check_missing_answer"
        where |= {"repo": model.repo, "file": model.filename, "revision": model.revision, "status": facts.status}
        return [(code, where)]
    found: list[tuple[str, dict[str, object]]] = []
    if model.size_bytes is not None and facts.size != model.size_bytes:
        found.append(("model_check_size", where | {"expected": model.size_bytes, "actual": facts.size or "?"}))
    if model.sha256 is not None and facts.sha256 != model.sha256:
        found.append(("model_check_sha256", where | {"expected": model.sha256, "actual": facts.sha256 or "?"}))
    if facts.licence != licence_tag(model.licence):
        found.append(
            ("model_check_licence", where | {"expected": licence_tag(model.licence), "actual": facts.licence or "?"})
        )
    if facts.gated is not None:
        found.append(("model_check_gated", where | {"gate": facts.gated}))
    return found


def check_catalog(catalog: list[CatalogModel], hub_url: str, client: httpx.Client | None = None) -> list[EntryCheck]:
    """Check every entry of ``catalog`` against the hub at ``hub_url`` (one request each, in catalog order)."""
    own = client is None
    http = client or httpx.Client(timeout=TIMEOUT_SECONDS, follow_redirects=True)
    try:
        results: list[EntryCheck] = []
        for model in catalog:
            if model.bundled:
                results.append(EntryCheck(model, None))
                continue
            try:
                facts = hub_facts(http, hub_url, model)
            except (httpx.HTTPError, ValueError) as error:
                results.append(EntryCheck(model, None, [("model_check_unreachable", _unreachable(model, error))]))
                continue
            results.append(EntryCheck(model, facts, _problems(model, facts)))
        return results
    finally:
        if own:
            http.close()


def _unreachable(model: CatalogModel, error: Exception) -> dict[str, object]:
    return {"model": model.id, "reason": type(error).__name__}


def _cell(shown: object, ok: bool | None) -> str:
    """A value the hub gave, marked: ✓ agrees with the catalog, ✗ does not, · the catalog has no figure."""
    return f"{shown} {'·' if ok is None else '✓' if ok else '✗'}"


def _row(check: EntryCheck, language: str) -> list[str]:
    model, facts = check.model, check.facts
    if facts is None:
        return [model.id, "?", "", "", "", ""]
    codes = {code for code, _ in check.problems}
    if not facts.exists:
        return [model.id, _cell(facts.status, False), "", "", _cell(facts.licence or "?", True), ""]
    sha = (facts.sha256 or "?")[:12]
    return [
        model.id,
        _cell(facts.status, True),
        _cell(facts.size or "?", None if model.size_bytes is None else "model_check_size" not in codes),
        _cell(sha, None if model.sha256 is None else "model_check_sha256" not in codes),
        _cell(facts.licence or "?", "model_check_licence" not in codes),
        _cell(facts.gated or "-", "model_check_gated" not in codes),
    ]


def check_lines(results: list[EntryCheck], language: str) -> list[str]:
    """The table (a header, one row per entry), then one line per mismatch, then the verdict."""
    header = message("model_check_header", language).split("|")
    rows = [header] + [_row(check, language) for check in results if not check.model.bundled]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)).rstrip() for row in rows]
    for check in results:
        if check.model.bundled:
            note = message("model_check_bundled", language, source=check.model.revision)
            lines.append(f"{check.model.id.ljust(widths[0])}  {note}")
    lines.append(message("model_check_legend", language))
    problems = [message(code, language, **values) for check in results for code, values in check.problems]
    lines += ["", *problems] if problems else []
    if problems:
        lines.append(message("model_check_failed", language, count=len(problems)))
    else:
        lines.append(message("model_check_passed", language, count=sum(1 for c in results if not c.model.bundled)))
    return lines


def _check_dict(check: EntryCheck, language: str) -> dict[str, Any]:
    facts = check.facts
    return {
        "id": check.model.id,
        "bundled": check.model.bundled,
        "hub": None if facts is None else dataclasses.asdict(facts),
        "mismatches": [{"code": code, "values": values} for code, values in check.problems],
        "lines": [message(code, language, **values) for code, values in check.problems],
    }


def check_command(settings: Settings, args: argparse.Namespace) -> int:
    """Run ``studyjobs models check``: print the table and the mismatches; exit 1 on any mismatch."""
    results = check_catalog(library_catalog(), settings.hub_url)
    language = settings.user_language()
    if getattr(args, "json", False):
        print(json.dumps([_check_dict(check, language) for check in results], indent=2))
    else:
        for line in check_lines(results, language):
            print(line)
    sys.stdout.flush()
    return EXIT_FAILED if any(check.problems for check in results) else EXIT_OK
