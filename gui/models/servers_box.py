"""The model servers found on this computer (or at an address the user types), with their models.

Asks with a coroutine on the window's qasync loop (short timeouts: never a frozen window); choosing a model emits
:attr:`ModelServersBox.chosen`. UI thread only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.app.models.servers import (
    DEFAULT_TARGETS,
    PROBE_TIMEOUT,
    FoundServer,
    ProbeStatus,
    ServerTarget,
    custom_target,
    find_servers,
)

__all__ = ["ModelServersBox"]

log = logging.getLogger(__name__)
_ENDPOINT = Qt.ItemDataRole.UserRole
_MODEL = Qt.ItemDataRole.UserRole + 1


class ModelServersBox(QGroupBox):
    """Lists the model servers that answer. UI thread only; searches need a running event loop (qasync).

    Args:
        targets: Where to look besides the typed address (tests pass their own servers).
        timeout: Seconds per question to one server.
        api_key: Gives the API key to send to a typed address (never to the usual local ports).
        parent: The parent widget.

    Signals:
        chosen: ``(endpoint, model_name)`` when the user picks a model.
        searched: A search ended and the list shows its result.

    Attributes:
        found: The servers of the last search that answered with a model list.
    """

    chosen = Signal(str, str)
    searched = Signal()

    def __init__(
        self,
        targets: Sequence[ServerTarget] = DEFAULT_TARGETS,
        *,
        timeout: float = PROBE_TIMEOUT,
        api_key: Callable[[], str | None] = lambda: None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(QCoreApplication.translate("ModelServersBox", "Model servers found"), parent)
        self.targets = tuple(targets)
        self.timeout = timeout
        self.api_key = api_key
        self.found: list[FoundServer] = []
        self.task: asyncio.Task[list[FoundServer]] | None = None
        layout = QVBoxLayout(self)
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        self.tree.setAccessibleName(QCoreApplication.translate("ModelServersBox", "Model servers found"))
        self.tree.setMinimumHeight(90)
        # Clicked or activated (Enter), not "current item changed": a tree emits that while it is being destroyed.
        self.tree.itemClicked.connect(self._picked)
        self.tree.itemActivated.connect(self._picked)
        layout.addWidget(self.tree)
        row = QHBoxLayout()
        self.address = QLineEdit()
        self.address.setPlaceholderText(
            QCoreApplication.translate("ModelServersBox", "Another address, e.g. http://192.168.0.10:11434")
        )
        self.address.setAccessibleName(QCoreApplication.translate("ModelServersBox", "Another server address"))
        self.address.returnPressed.connect(self.start_search)
        self.search_button = QPushButton(QCoreApplication.translate("ModelServersBox", "Look for servers"))
        self.search_button.setAccessibleName(QCoreApplication.translate("ModelServersBox", "Look for servers"))
        self.search_button.clicked.connect(self.start_search)
        row.addWidget(self.address, 1)
        row.addWidget(self.search_button)
        layout.addLayout(row)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout.addWidget(self.status)

    def start_search(self) -> None:
        """Search on the running event loop (a search under way is replaced); without a loop, say so."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.status.setText(QCoreApplication.translate("ModelServersBox", "Cannot look for servers right now."))
            return
        self.cancel()
        self.task = loop.create_task(self.search(), name="model-servers")
        self.task.add_done_callback(self._search_ended)

    def cancel(self) -> None:
        """Stop a search under way (when the dialog closes)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def search(self) -> list[FoundServer]:
        """Ask every target and the typed address at once, fill the list, emit :attr:`searched`; returns every
        answer (found or not). A typed address that is not one is reported in the status line."""
        extra: list[ServerTarget] = []
        typed = self.address.text().strip()
        if typed:
            try:
                extra.append(custom_target(typed))
            except ValueError:
                self.status.setText(
                    QCoreApplication.translate("ModelServersBox", "“{address}” is not a server address.").format(
                        address=typed
                    )
                )
        self.search_button.setEnabled(False)
        self.status.setText(QCoreApplication.translate("ModelServersBox", "Looking for model servers…"))
        try:
            answers = await find_servers(self.targets, extra=extra, timeout=self.timeout, api_key=self.api_key())
        finally:
            self.search_button.setEnabled(True)
        self._show(answers, typed=extra[0] if extra else None)
        self.searched.emit()
        return answers

    def _search_ended(self, task: asyncio.Task[list[FoundServer]]) -> None:
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("looking for model servers failed", exc_info=exc)
            self.status.setText(QCoreApplication.translate("ModelServersBox", "Looking for model servers failed."))

    def _show(self, answers: list[FoundServer], *, typed: ServerTarget | None) -> None:
        self.found = [a for a in answers if a.found]
        self.tree.clear()
        for server in self.found:
            top = QTreeWidgetItem([f"{server.target.name} — {server.endpoint}"])
            top.setData(0, _ENDPOINT, server.endpoint)
            top.setFlags(Qt.ItemFlag.ItemIsEnabled)
            if not server.models:
                top.addChild(QTreeWidgetItem([QCoreApplication.translate("ModelServersBox", "(no model loaded)")]))
            for model in server.models:
                child = QTreeWidgetItem([model])
                child.setData(0, _ENDPOINT, server.endpoint)
                child.setData(0, _MODEL, model)
                top.addChild(child)
            self.tree.addTopLevelItem(top)
            top.setExpanded(True)
        notes = [self._note(a) for a in answers if a.target == typed and not a.found]
        if self.found:
            notes.insert(0, QCoreApplication.translate("ModelServersBox", "Choose a model to use it."))
        else:
            notes.insert(
                0,
                QCoreApplication.translate(
                    "ModelServersBox", "No model server answered (Ollama, LM Studio or llama.cpp's server)."
                ),
            )
        self.status.setText(" ".join(notes))

    @staticmethod
    def _note(answer: FoundServer) -> str:
        where = answer.target.address
        if answer.status is ProbeStatus.NEEDS_KEY:
            return QCoreApplication.translate(
                "ModelServersBox", "{address} wants an API key: type it below and look again."
            ).format(address=where)
        if answer.status is ProbeStatus.NOT_A_SERVER:
            return QCoreApplication.translate(
                "ModelServersBox", "{address} answered, but not as a model server."
            ).format(address=where)
        return QCoreApplication.translate("ModelServersBox", "{address} did not answer.").format(address=where)

    def _picked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        model = item.data(0, _MODEL)
        if model:
            self.chosen.emit(str(item.data(0, _ENDPOINT)), str(model))

    def choose(self, endpoint: str, model: str) -> bool:
        """Select ``model`` of the server at ``endpoint`` as a click would (``False``: not listed)."""
        for index in range(self.tree.topLevelItemCount()):
            top = self.tree.topLevelItem(index)
            for child in (top.child(i) for i in range(top.childCount())):
                if child.data(0, _ENDPOINT) == endpoint and child.data(0, _MODEL) == model:
                    self.tree.setCurrentItem(child)
                    self._picked(child)
                    return True
        return False
