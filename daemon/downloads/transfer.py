"""One ``GET`` of a file's bytes, read straight into a reused buffer and written to the partial file.

Follows redirects, honours the proxy, checks certificates, with connect and idle timeouts. Blocking; one call per
thread. Every network failure is an ``OSError`` or :class:`http.client.HTTPException`. Why :mod:`http.client` and
the measurements: docs/design/worker.md.
"""

from __future__ import annotations

import base64
import http.client
import ssl
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import unquote, urljoin, urlsplit

__all__ = ["BUFFER_SIZE", "MAX_REDIRECTS", "Answer", "TooManyRedirects", "get"]

BUFFER_SIZE = 1 << 16
MAX_REDIRECTS = 5
_REDIRECTS = frozenset({301, 302, 303, 307, 308})


class TooManyRedirects(http.client.HTTPException):
    """More than :data:`MAX_REDIRECTS` redirects, or one without a ``Location``."""


@dataclass
class Answer:
    """The final answer: its status, headers and the body still to read (:meth:`readinto`)."""

    status: int
    headers: http.client.HTTPMessage
    response: http.client.HTTPResponse

    def readinto(self, buffer: memoryview) -> int:
        """Bytes of the body read into ``buffer`` (``0``: the body is over)."""
        return self.response.readinto(buffer)


def _proxy_for(scheme: str, host: str) -> str | None:
    if urllib.request.proxy_bypass(host):
        return None
    proxy = urllib.request.getproxies().get(scheme)
    return proxy or None


def _connection(
    url: str, tls: ssl.SSLContext, connect_timeout: float
) -> tuple[http.client.HTTPConnection, str, dict[str, str]]:
    """An open connection for ``url``, the request target to send on it (a proxy wants the absolute URL) and the
    headers a plain-HTTP proxy wants with the request."""
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host = parts.hostname or ""
    port = parts.port or (443 if secure else 80)
    target = parts.path or "/"
    if parts.query:
        target += "?" + parts.query
    proxy = _proxy_for(parts.scheme, host)
    extra: dict[str, str] = {}
    connection: http.client.HTTPConnection
    if proxy is None:
        if secure:
            connection = http.client.HTTPSConnection(host, port, timeout=connect_timeout, context=tls)
        else:
            connection = http.client.HTTPConnection(host, port, timeout=connect_timeout)
    else:
        via = urlsplit(proxy if "://" in proxy else f"http://{proxy}")
        if via.username:
            token = base64.b64encode(f"{unquote(via.username)}:{unquote(via.password or '')}".encode()).decode()
            extra = {"Proxy-Authorization": f"Basic {token}"}
        proxy_host, proxy_port = via.hostname or "", via.port or 80
        if secure:
            connection = http.client.HTTPSConnection(proxy_host, proxy_port, timeout=connect_timeout, context=tls)
            connection.set_tunnel(host, port, headers=extra)
            extra = {}
        else:
            connection = http.client.HTTPConnection(proxy_host, proxy_port, timeout=connect_timeout)
            target = url
    connection.connect()
    return connection, target, extra


@contextmanager
def get(
    url: str,
    headers: Mapping[str, str],
    *,
    tls: ssl.SSLContext,
    connect_timeout: float,
    idle_timeout: float,
) -> Iterator[Answer]:
    """``GET url`` with ``headers``, following redirects; yields the final :class:`Answer` and closes the
    connection on leaving.

    Raises:
        OSError: Connecting, a TLS failure, a read slower than ``idle_timeout`` (``TimeoutError``).
        http.client.HTTPException: A malformed answer, a connection closed mid-answer, :class:`TooManyRedirects`.
    """
    connection: http.client.HTTPConnection | None = None
    try:
        for _ in range(MAX_REDIRECTS + 1):
            connection, target, extra = _connection(url, tls, connect_timeout)
            if connection.sock is not None:
                connection.sock.settimeout(idle_timeout)
            connection.request("GET", target, headers={"Accept-Encoding": "identity", **headers, **extra})
            response = connection.getresponse()
            if response.status not in _REDIRECTS:
                yield Answer(response.status, response.headers, response)
                return
            location = response.getheader("Location")
            connection.close()
            if not location:
                raise TooManyRedirects("a redirect without a Location")
            url = urljoin(url, location)
        raise TooManyRedirects(f"more than {MAX_REDIRECTS} redirects")
    finally:
        if connection is not None:
            connection.close()
