"""One StudyJobs window per data folder: a second launch hands its files over and brings the first forward.

The first instance listens on a :class:`QLocalServer` whose name is derived from the data folder; a later launch
connects, sends one JSON line (``{"files": [...]}`` or ``{"quit": true}``) and exits. A server name left behind by
a crashed instance is removed before listening.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

__all__ = ["SingleInstance", "server_name"]

log = logging.getLogger(__name__)


def server_name(data_dir: Path) -> str:
    """The local server's name for a data folder (short: some platforms limit socket path lengths)."""
    digest = hashlib.sha1(str(Path(data_dir).expanduser().absolute()).encode()).hexdigest()[:16]
    return f"studyjobs-{digest}"


class SingleInstance(QObject):
    """The single-instance guard. UI thread only.

    Signals:
        files_received: A later launch handed over these paths (possibly none: "show yourself").
        quit_requested: A later launch asked this instance to quit (``--quit``).
    """

    files_received = Signal(list)
    quit_requested = Signal()

    def __init__(self, data_dir: Path) -> None:
        super().__init__()
        self.name = server_name(data_dir)
        self.server: QLocalServer | None = None
        self._buffers: dict[QLocalSocket, bytes] = {}

    def hand_over(self, message: dict[str, Any], *, timeout_ms: int = 1000) -> bool:
        """Send ``message`` to a running instance; ``False`` when none answers (then call :meth:`listen`)."""
        socket = QLocalSocket()
        socket.connectToServer(self.name)
        if not socket.waitForConnected(timeout_ms):
            return False
        socket.write((json.dumps(message) + "\n").encode())
        socket.waitForBytesWritten(timeout_ms)
        socket.disconnectFromServer()
        if socket.state() != QLocalSocket.LocalSocketState.UnconnectedState:
            socket.waitForDisconnected(timeout_ms)
        return True

    def listen(self) -> bool:
        """Become the first instance. ``False`` when the name cannot be taken."""
        QLocalServer.removeServer(self.name)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._accept)
        ok = self.server.listen(self.name)
        if not ok:
            log.warning("single instance: cannot listen on %s: %s", self.name, self.server.errorString())
        return ok

    def close(self) -> None:
        """Stop listening."""
        if self.server is not None:
            self.server.close()
            self.server.deleteLater()
            self.server = None

    def _accept(self) -> None:
        assert self.server is not None
        while (socket := self.server.nextPendingConnection()) is not None:
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._read(s))
            socket.disconnected.connect(lambda s=socket: self._finish(s))

    def _read(self, socket: QLocalSocket) -> None:
        self._buffers[socket] = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if b"\n" in self._buffers[socket]:
            self._finish(socket)

    def _finish(self, socket: QLocalSocket) -> None:
        data = self._buffers.pop(socket, None)
        if data is None:
            return
        data += bytes(socket.readAll().data())
        socket.deleteLater()
        try:
            message = json.loads(data.decode().strip() or "{}")
        except ValueError:
            log.warning("single instance: ignored a malformed message")
            return
        if message.get("quit"):
            self.quit_requested.emit()
        else:
            self.files_received.emit([str(f) for f in message.get("files", [])])
