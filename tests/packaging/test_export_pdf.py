"""The bundle's window executable writes a guide's PDF for the command line (``--export-pdf``), run from source."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pypdfium2

ROOT = Path(__file__).resolve().parents[2]


def test_the_window_entry_writes_the_markdown_on_its_input_as_a_pdf(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "QT_QPA_PLATFORM"}  # it goes offscreen itself
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    output = tmp_path / "guide.pdf"
    done = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "entry_gui.py"), "--export-pdf", str(output), "--title", "Água"],
        input="# Água\n\n## Ciclo\n\n- **Evaporação**: a água vira vapor.\n\n*Fontes: pág. 2–3*\n".encode(),
        env=env,
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    pdf = pypdfium2.PdfDocument(str(output))
    try:
        text = pdf[0].get_textpage().get_text_range()
        title = pdf.get_metadata_dict().get("Title")
    finally:
        pdf.close()
    assert "Evaporação: a água vira vapor." in text and "Fontes: pág. 2–3" in text
    assert title == "Água"
    missing = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "entry_gui.py"), "--export-pdf", str(tmp_path / "no" / "g.pdf")],
        input=b"# x\n",
        env=env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert missing.returncode == 1 and b"could not be written" in missing.stderr
