"""Colours that stay legible on dark and light palettes: status colours picked by the palette's lightness.

A cancelled job is grey (never the error colour); a failed one is red; done is green; running uses the palette's
highlight. :func:`apply_palette` sets the Fusion style and a light or dark palette (``"system"`` keeps the
platform's).
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

__all__ = ["apply_palette", "is_dark", "status_color"]

_LIGHT = {"done": "#2e7d32", "failed": "#c62828", "cancelled": "#8a8a8a", "queued": "#9e9e9e"}
_DARK = {"done": "#66bb6a", "failed": "#ef5350", "cancelled": "#9e9e9e", "queued": "#757575"}


def is_dark(palette: QPalette) -> bool:
    """Whether the window background is dark."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def status_color(status: str, palette: QPalette) -> QColor:
    """The bar colour of a status on this palette."""
    if status == "running":
        return palette.color(QPalette.ColorRole.Highlight)
    table = _DARK if is_dark(palette) else _LIGHT
    return QColor(table.get(status, table["queued"]))


def error_text_style(palette: QPalette) -> str:
    """A style sheet that writes a label in the error colour of this palette (readable on light and dark)."""
    return f"color: {status_color('failed', palette).name()};"


def dark_palette() -> QPalette:
    """A dark palette with enough contrast for text, bars and disabled controls."""
    p = QPalette()
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    colors = {
        role.Window: "#2b2b2b", role.WindowText: "#e6e6e6", role.Base: "#1f1f1f", role.AlternateBase: "#2a2a2a",
        role.ToolTipBase: "#3a3a3a", role.ToolTipText: "#f0f0f0", role.Text: "#e6e6e6", role.Button: "#353535",
        role.ButtonText: "#e6e6e6", role.BrightText: "#ff6b6b", role.Link: "#64b5f6", role.Highlight: "#3d8ee0",
        role.HighlightedText: "#ffffff", role.PlaceholderText: "#9a9a9a", role.Mid: "#444444",
    }  # fmt: skip
    for r, c in colors.items():
        p.setColor(r, QColor(c))
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(group.Disabled, r, QColor("#8a8a8a"))
    return p


def apply_palette(app: QApplication, scheme: str = "system") -> None:
    """Use the Fusion style with a ``"light"``, ``"dark"`` or the platform's (``"system"``) palette."""
    app.setStyle("Fusion")
    if scheme == "dark":
        app.setPalette(dark_palette())
    elif scheme == "light":
        app.setPalette(app.style().standardPalette())
