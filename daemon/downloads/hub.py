"""Talking to a Hugging Face hub (or a mirror at the ``hub_url`` setting) over plain ``httpx``: the ``HEAD`` of a file.

Pure or blocking I/O, safe from any thread; nothing keeps state between calls. Why not ``huggingface_hub``, and the
hub's protocol: docs/design/worker.md.
"""

from __future__ import annotations

import email.utils
import re
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from core.app.messages.sentences import CodedError

__all__ = [
    "TRANSIENT_STATUSES",
    "DownloadError",
    "HubFile",
    "RemoteFile",
    "file_url",
    "head_file",
    "retry_after_seconds",
    "status_error",
    "status_error_for",
]

TRANSIENT_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
"""HTTP answers worth trying again later: a timeout, too many requests, a server error or a gateway's."""

_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class DownloadError(CodedError):
    """A download failure with a message code (:mod:`core.app.messages.catalog`); ``transient`` ones may be retried
    (not before ``retry_after`` seconds when the server said so)."""

    def __init__(self, code: str, *, transient: bool = False, retry_after: float | None = None, **values: Any):
        super().__init__(code, transient=transient, **values)
        self.retry_after = retry_after


@dataclass(frozen=True)
class HubFile:
    """One file of one revision of a hub repository, with what the catalog already knows of it."""

    repo: str
    revision: str
    filename: str
    size: int | None = None
    sha256: str | None = None


@dataclass(frozen=True)
class RemoteFile:
    """What the hub says of a file: its size, sha256 (``None`` when it gave none), ETag and commit."""

    size: int | None
    sha256: str | None
    etag: str | None
    commit: str | None


def file_url(hub_url: str, repo: str, revision: str, filename: str) -> str:
    """``{hub_url}/{repo}/resolve/{revision}/{filename}``, each part quoted for a URL."""
    path = "/".join(quote(part, safe="") for part in filename.split("/"))
    return f"{hub_url.rstrip('/')}/{quote(repo, safe='/')}/resolve/{quote(revision, safe='')}/{path}"


def retry_after_seconds(value: str | None, *, now: float | None = None) -> float | None:
    """The wait a ``Retry-After`` header asks for (seconds or an HTTP date), ``None`` when absent or unreadable."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def status_error(response: httpx.Response) -> DownloadError:
    """The :class:`DownloadError` for an HTTP error answer (plain code; transient ones carry Retry-After)."""
    return status_error_for(response.status_code, response.headers.get("Retry-After"))


def status_error_for(status: int, retry_after: str | None) -> DownloadError:
    """:func:`status_error` from the status and the ``Retry-After`` header's text."""
    if status in TRANSIENT_STATUSES:
        wait = retry_after_seconds(retry_after)
        return DownloadError("model_server_busy", transient=True, retry_after=wait, status=status)
    if status in (401, 403):
        return DownloadError("model_forbidden", status=status)
    if status == 404:
        return DownloadError("model_not_found", status=status)
    return DownloadError("model_http_error", transient=status >= 500, status=status)


def _sha256_of(value: str | None) -> str | None:
    text = (value or "").strip().strip('"').lower()
    if text.startswith("w/"):
        text = text[2:].strip('"')
    return text if _SHA256.match(text) else None


def head_file(client: httpx.Client, hub_url: str, file: HubFile) -> RemoteFile:
    """Ask the hub about ``file`` (one ``HEAD``, no redirect followed). Raises :class:`DownloadError`.

    A network failure is transient; a ``3xx`` answer is read for its LFS headers, as the hub sends them there.
    """
    url = file_url(hub_url, file.repo, file.revision, file.filename)
    try:
        response = client.head(url, follow_redirects=False)
    except httpx.TransportError as error:
        raise DownloadError("model_network", transient=True, reason=type(error).__name__) from error
    if response.status_code >= 400:
        raise status_error(response)
    if 300 <= response.status_code < 400 and "X-Linked-Size" not in response.headers:
        try:  # a plain redirect (a mirror's): follow it for the size
            response = client.head(url, follow_redirects=True)
        except httpx.TransportError as error:
            raise DownloadError("model_network", transient=True, reason=type(error).__name__) from error
        if response.status_code >= 400:
            raise status_error(response)
    headers = response.headers
    size_text = headers.get("X-Linked-Size") or headers.get("Content-Length")
    size = int(size_text) if size_text and size_text.isdigit() else None
    return RemoteFile(
        size=size,
        sha256=_sha256_of(headers.get("X-Linked-Etag")),
        etag=headers.get("ETag"),
        commit=headers.get("X-Repo-Commit"),
    )
