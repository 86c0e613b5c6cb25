"""Drive the real StudyJobs app as a person would and record what its window shows.

Run as a script in a process of its own, under a real X server::

    python tests/gui/window_session.py RECORD.json SCREENSHOT.png DOCUMENT

It starts the app through its own entry point (``gui.app.main``, the same path as ``python -m gui DOCUMENT``), so
the window starts the worker, asks what to make of the document, and the person answers "Study guide". While the
document is worked on it samples the jobs list and the details panel every 0.2 s; once the guide is done it opens
the guide viewer, takes a screenshot of the X screen, writes everything to ``RECORD.json`` and quits the app. The
app's worker keeps running after the window quits (as it does for a user): the caller stops it.

Only Qt's own public objects and the window's widgets are read; nothing of the app is replaced.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from gui.adding.dialog import AddDialog  # noqa: E402
from gui.app import main  # noqa: E402
from gui.documents.table_model import COLUMNS  # noqa: E402
from gui.main_window import MainWindow  # noqa: E402

SAMPLE_EVERY_MS = 200
GIVE_UP_AFTER = 600.0


class Session:
    """The person at the screen: answers the add dialog, watches the list, opens the guide, then quits."""

    def __init__(self, record: Path, screenshot: Path) -> None:
        self.record_path, self.screenshot = record, screenshot
        self.began = time.monotonic()
        self.samples: list[dict[str, Any]] = []
        self.answered = False
        self.finished = False
        self.viewer_opened_at: float | None = None
        self.timer = QTimer()
        self.timer.setInterval(SAMPLE_EVERY_MS)
        self.timer.timeout.connect(self.step)
        self.timer.start()

    def window(self) -> MainWindow | None:
        return next((w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()), None)

    def step(self) -> None:
        try:
            self._step()
        except Exception as error:  # the record says what went wrong; the app is asked to quit
            self._finish({"error": repr(error)})

    def _step(self) -> None:
        if self.finished:
            return
        if time.monotonic() - self.began > GIVE_UP_AFTER:
            self._finish({"error": "the guide was not done in time"})
            return
        window = self.window()
        if window is None:
            return
        if not self.answered:
            self._answer_the_add_dialog()
            return
        sample = self._sample(window)
        if sample is not None:
            self.samples.append(sample)
            if sample["status"] in ("failed", "cancelled"):
                self._finish({"error": f"the document {sample['status']}: {sample['error_text']}"})
            elif sample["status"] == "done" and sample["guide_ready"]:
                self._look_at_the_guide(window)

    def _answer_the_add_dialog(self) -> None:
        dialog = next((w for w in QApplication.topLevelWidgets() if isinstance(w, AddDialog) and w.isVisible()), None)
        if dialog is None:
            return
        dialog.guide.setChecked(True)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        self.answered = True

    def _sample(self, window: MainWindow) -> dict[str, Any] | None:
        model = window.model
        if model.rowCount() == 0:
            return None
        if window.selected_id is None:
            window.view.selectRow(0)
            window.view.setCurrentIndex(model.index(0, 0))
        row = model.rows[0]
        cells = {name: model.data(model.index(0, i)) for i, name in enumerate(COLUMNS)}
        details = window.details
        return {
            "t": round(time.monotonic() - self.began, 2),
            "rows": model.rowCount(),
            "status": row.status,
            "progress": row.progress,
            "cells": cells,
            "eta_seconds": row.eta,
            "counters": details.fields["counters"].text(),
            "message": details.message.text(),
            "error_text": details.error.text(),
            "phases": [bar.name for bar in details.phases.states],
            "guide_ready": window.output_path is not None,
        }

    def _look_at_the_guide(self, window: MainWindow) -> None:
        viewer = window.guide_viewer
        if self.viewer_opened_at is None:
            window.details_tabs.show_guide()
            self.viewer_opened_at = time.monotonic()
            return
        if viewer.guide is None or not viewer.guide.complete or time.monotonic() - self.viewer_opened_at < 1.0:
            return
        screen = QApplication.primaryScreen()
        screen.grabWindow(0).save(str(self.screenshot))
        self._finish(
            {
                "guide_path": str(window.output_path),
                "viewer_text": viewer.browser.toPlainText(),
                "viewer_markdown": viewer.guide.markdown,
                "platform": QApplication.platformName(),
            }
        )

    def _finish(self, extra: dict[str, Any]) -> None:
        self.finished = True
        self.timer.stop()
        record = {"samples": self.samples, **extra}
        self.record_path.write_text(json.dumps(record, indent=1, default=str), encoding="utf-8")
        window = self.window()
        if window is not None:
            window.request_quit()
        else:
            QApplication.quit()


def run(argv: list[str]) -> int:
    """Start the app on ``DOCUMENT`` with a :class:`Session` watching it."""
    record, screenshot, document = Path(argv[1]), Path(argv[2]), argv[3]
    app = QApplication([argv[0]])
    session = Session(record, screenshot)
    code = main(["studyjobs-gui", document])
    del session, app
    return code


if __name__ == "__main__":
    sys.exit(run(sys.argv))
