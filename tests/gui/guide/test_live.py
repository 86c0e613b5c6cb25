"""The study guide tab while the real worker writes the guide: sections appear as they are stored, then the whole
guide, rendered as its file renders.

The worker is the real daemon the window starts (its normal command) on a temp data folder whose settings name the
suite's tiny deterministic GGUF; the model file is written by a subprocess (this process never imports ``daemon``).
The daemon is stopped at teardown (SIGTERM, then wait).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtGui import QTextDocument

from core.app.settings.config import ENV_DATA_DIR, Settings, load_settings
from gui.worker.process import ENV_DAEMON_COMMAND, DaemonLauncher
from tests.gui.guidaemon import environment, stop_process, write_settings

ROOT = Path(__file__).resolve().parents[3]
PARAGRAPH = (
    "Photosynthesis is the process by which plants turn sunlight into chemical energy. It happens in the "
    "chloroplasts, which hold chlorophyll, the green pigment that absorbs the light.\n\n"
)


@pytest.fixture
def settings(settings: Settings, tiny_gguf: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    """The conftest's temp data folder, with a ``settings.toml`` the daemon reads too (the tiny model)."""
    monkeypatch.delenv(ENV_DAEMON_COMMAND, raising=False)
    write_settings(settings.data_dir, settings.output_dir, model=tiny_gguf, stale_after=None)
    return load_settings(env={ENV_DATA_DIR: str(settings.data_dir)})


@pytest.fixture
def launcher(settings: Settings) -> Iterator[DaemonLauncher]:
    """The window's launcher with its normal command; the daemon it started is stopped (SIGTERM, wait) after."""
    launcher = DaemonLauncher(None, log_dir=settings.log_dir, env=environment(settings.data_dir))
    yield launcher
    stop_process(launcher.process)


def section_titles(document: QTextDocument) -> list[str]:
    """The level-2 headings of a rendered guide, in order."""
    titles, block = [], document.begin()
    while block.isValid():
        if block.blockFormat().headingLevel() == 2:
            titles.append(block.text())
        block = block.next()
    return titles


@dataclass(frozen=True)
class Seen:
    """What the study guide tab showed at one moment."""

    state: str
    titles: tuple[str, ...]
    complete: bool | None


def test_the_guide_tab_fills_in_while_the_real_worker_writes_and_ends_equal_to_the_guide_file(
    make_window, launcher, store, settings, tmp_path, run, wait_until
):
    window = make_window(launcher=launcher, watch_interval=0.1)
    viewer = window.guide_viewer
    source = tmp_path / "photosynthesis.txt"
    source.write_text(PARAGRAPH * 80, encoding="utf-8")
    seen: list[Seen] = []

    async def sample() -> None:
        while True:
            guide = viewer.guide
            now = Seen(viewer.state.text(), tuple(section_titles(viewer.browser.document())), guide and guide.complete)
            if not seen or seen[-1] != now:
                seen.append(now)
            await asyncio.sleep(0.01)

    async def scenario() -> None:
        assert await window.daemon_bar.start_if_none()
        window.enqueue([source], False)
        (ingest,) = await wait_until(lambda: store.list_recent(limit=5), what="the document's job")
        await wait_until(lambda: window.select_job(ingest.id), what="the document in the table")
        window.details_tabs.show_guide()
        sampler = asyncio.ensure_future(sample())
        try:
            await wait_until(lambda: viewer.guide is not None and viewer.guide.complete, timeout=150, what="done")
            await asyncio.sleep(0.05)
        finally:
            sampler.cancel()

    run(scenario(), timeout=180)
    guide = viewer.guide
    assert guide is not None and guide.path is not None and guide.path.parent == settings.output_dir
    markdown = guide.path.read_text(encoding="utf-8")
    expected = QTextDocument()
    expected.setMarkdown(markdown)
    assert viewer.browser.toPlainText() == expected.toPlainText()
    assert viewer.state.text() == f"Finished: {guide.path.name}"
    final = section_titles(expected)[:-2]  # the sections, then the glossary and the coverage table
    assert section_titles(expected)[-2:] == ["Glossary", "Coverage"]
    assert len(final) == guide.sections > 1

    writing = [s for s in seen if s.complete is False]
    counts = [int(m.group(1)) for s in writing if (m := re.search(r"\((\d+) sections? so far\)", s.state))]
    assert any(0 < n < len(final) for n in counts), [s.state for s in seen]  # seen half written
    assert counts == sorted(counts)
    shown_in_full = section_titles(expected)
    for s in writing:
        assert list(s.titles) == shown_in_full[: len(s.titles)], s  # what was shown is the start of the guide
        if (m := re.search(r"\((\d+) sections? so far\)", s.state)) is not None:
            assert int(m.group(1)) == min(len(s.titles), len(final)), s  # the glossary is not a section
