"""The main window's actions, and the menus and toolbar that show them.

Every action runs its slot through the window's guard (a Qt slot is a boundary: an error reaches the
:class:`~gui.error_dialog.ErrorReporter`, never the event loop). The same ``QAction`` objects sit in the menus, the
toolbar and the details panel's buttons, so enabling one enables all of them. UI thread only. The texts keep the
``MainWindow`` translation context they had when they lived in :mod:`gui.main_window`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QMenu

from gui.documents.commands import DocumentCommands

__all__ = ["WindowActions", "WindowSlots", "add_menus", "add_toolbar", "make_actions"]

Guard = Callable[..., Any]


@dataclass(frozen=True)
class WindowSlots:
    """What each action that is not about documents calls (plain callables of the window)."""

    add: Callable[[], Any]
    settings: Callable[[], Any]
    quit: Callable[[], Any]
    find: Callable[[], Any]
    refresh: Callable[[], Any]


@dataclass(frozen=True)
class WindowActions:
    """The window's actions."""

    add: QAction
    cancel: QAction
    retry: QAction
    cancel_all: QAction
    retry_failed: QAction
    write_again: QAction
    open: QAction
    folder: QAction
    remove: QAction
    settings: QAction
    quit: QAction
    find: QAction
    refresh: QAction

    @property
    def job_actions(self) -> list[QAction]:
        """The actions about the selected documents, as the details panel shows them."""
        return [self.cancel, self.retry, self.open, self.folder, self.write_again, self.remove]


def make_actions(window: QMainWindow, slots: WindowSlots, commands: DocumentCommands, guard: Guard) -> WindowActions:
    """Make the actions (added to ``window`` so their shortcuts work anywhere in it); those about documents run
    ``commands``."""

    def action(text: str, shortcut: QKeySequence | str | None, slot: Callable[[], Any], tip: str = "") -> QAction:
        made = QAction(text, window)
        if shortcut is not None:
            made.setShortcut(QKeySequence(shortcut))
        made.setToolTip(tip or text.replace("&", ""))
        made.setStatusTip(tip)
        made.triggered.connect(lambda _checked=False: guard(slot))
        window.addAction(made)
        return made

    std = QKeySequence.StandardKey
    add = action(QCoreApplication.translate("MainWindow", "&Add documents…"), QKeySequence(std.Open), slots.add)
    documents = _document_actions(action, commands)
    return WindowActions(
        add=add,
        **documents,
        settings=action(
            QCoreApplication.translate("MainWindow", "&Settings…"), QKeySequence(std.Preferences), slots.settings
        ),
        quit=action(QCoreApplication.translate("MainWindow", "&Quit"), QKeySequence(std.Quit), slots.quit),
        find=action(QCoreApplication.translate("MainWindow", "&Find"), QKeySequence(std.Find), slots.find),
        refresh=action(QCoreApplication.translate("MainWindow", "Re&fresh"), QKeySequence(std.Refresh), slots.refresh),
    )


def _document_actions(action: Callable[..., QAction], commands: DocumentCommands) -> dict[str, QAction]:
    """The actions on documents (``action`` makes one: text, shortcut, slot, tip), in menu order."""
    std = QKeySequence.StandardKey
    return dict(
        cancel=action(
            QCoreApplication.translate("MainWindow", "&Cancel job"),
            "Ctrl+.",
            commands.cancel_selected,
            QCoreApplication.translate("MainWindow", "Stop this job"),
        ),
        retry=action(
            QCoreApplication.translate("MainWindow", "&Retry"),
            "Ctrl+R",
            commands.retry_selected,
            QCoreApplication.translate("MainWindow", "Run this job again"),
        ),
        cancel_all=action(
            QCoreApplication.translate("MainWindow", "Cancel &all"),
            None,
            commands.cancel_all,
            QCoreApplication.translate("MainWindow", "Stop every document that is waiting or running"),
        ),
        retry_failed=action(
            QCoreApplication.translate("MainWindow", "Retry all &failed"),
            None,
            commands.retry_all_failed,
            QCoreApplication.translate("MainWindow", "Run every document that failed again"),
        ),
        write_again=action(
            QCoreApplication.translate("MainWindow", "&Write again"),
            None,
            commands.write_again,
            QCoreApplication.translate(
                "MainWindow", "Write this study guide again; the one you have stays until the new one is ready"
            ),
        ),
        open=action(QCoreApplication.translate("MainWindow", "&Open study guide"), "Ctrl+Return", commands.open_output),
        folder=action(
            QCoreApplication.translate("MainWindow", "Show in &folder"), "Ctrl+Shift+F", commands.show_in_folder
        ),
        remove=action(
            QCoreApplication.translate("MainWindow", "Re&move from history"),
            QKeySequence(std.Delete),
            commands.remove_selected,
            QCoreApplication.translate("MainWindow", "Forget this finished job (its files are kept)"),
        ),
    )


def _fill(menu: QMenu, actions: list[QAction | None]) -> None:
    for action in actions:
        if action is None:
            menu.addSeparator()
        else:
            menu.addAction(action)


def add_menus(window: QMainWindow, actions: WindowActions) -> None:
    """The File, Job and View menus."""
    bar = window.menuBar()
    _fill(
        bar.addMenu(QCoreApplication.translate("MainWindow", "&File")),
        [actions.add, None, actions.settings, None, actions.quit],
    )
    _fill(
        bar.addMenu(QCoreApplication.translate("MainWindow", "&Job")),
        [
            actions.cancel,
            actions.retry,
            actions.write_again,
            None,
            actions.cancel_all,
            actions.retry_failed,
            None,
            actions.open,
            actions.folder,
            None,
            actions.remove,
        ],
    )
    _fill(bar.addMenu(QCoreApplication.translate("MainWindow", "&View")), [actions.find, actions.refresh])


def add_toolbar(window: QMainWindow, actions: WindowActions) -> None:
    """The main toolbar: add, cancel, retry, open, then the whole queue's cancel and retry, then settings."""
    toolbar = window.addToolBar(QCoreApplication.translate("MainWindow", "Main"))
    toolbar.setObjectName("main-toolbar")
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    for action in (actions.add, actions.cancel, actions.retry, actions.open):
        toolbar.addAction(action)
    toolbar.addSeparator()
    toolbar.addAction(actions.cancel_all)
    toolbar.addAction(actions.retry_failed)
    toolbar.addSeparator()
    toolbar.addAction(actions.settings)
