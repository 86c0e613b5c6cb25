"""A finished study guide in the shape the writer gives it — per section a summary, key terms with definitions,
review questions with answers and pages, a sources line; then a glossary and a coverage table — stored the way the
``generate`` job stores it (``guide_sections`` rows and a ``study_guides`` row), for the export tests."""

from __future__ import annotations

import uuid
from pathlib import Path

from core.app.guides.markdown import head_markdown, join_guide, section_markdown
from core.app.guides.stored import save_guide_part
from core.app.storage.schema import Job, StudyGuide
from core.db import AsyncDatabaseManager
from core.store import JobStore

TITLE = "Photosynthesis"
OVERVIEW = "How plants turn light into sugar.\n\n**Learning objectives**\n\n- Explain the light reactions."
SECTIONS = [
    (
        "Light reactions",
        "Light is absorbed by *chlorophyll* in the **thylakoid** membranes.\n\n"
        "### Key terms\n\n"
        "- **Chlorophyll**: the green pigment that absorbs light (p. 12).\n"
        "- **Thylakoid**: a membrane sac inside the chloroplast.\n\n"
        "### Review questions\n\n"
        "1. **Q:** What does chlorophyll absorb?\n"
        "   **A:** Mostly red and blue light. (p. 12)\n"
        "2. **Q:** Where do the light reactions happen?\n"
        "   **A:** In the thylakoid membranes. (p. 13)\n\n"
        "*Sources: p. 12–15*",
    ),
    (
        "Calvin cycle",
        "> Written from quotes: the model's text failed the check.\n\n"
        "Carbon dioxide is fixed into sugar in the stroma (p. 16).\n\n"
        "### Key terms\n\n"
        "- **RuBisCO**: the enzyme that fixes carbon dioxide.\n\n"
        "### Review questions\n\n"
        "1. **Q:** Which enzyme fixes carbon dioxide?\n"
        "   **A:** RuBisCO, in the stroma.\n\n"
        "*Sources: pp. 16–18*",
    ),
]
GLOSSARY = (
    "Glossary",
    "- **Chlorophyll**: the green pigment that absorbs light.\n- **Stroma**: the fluid around the thylakoids.",
)
COVERAGE = (
    "Coverage",
    "| Pages | Section | Note |\n|---|---|---|\n| 12–15 | Light reactions | |\n| 16–18 | Calvin cycle | |\n"
    "| 19 | — | left out: an index page |",
)
TERMS = ["Chlorophyll", "Thylakoid", "RuBisCO", "Stroma"]
QUESTIONS = [
    "What does chlorophyll absorb?",
    "Where do the light reactions happen?",
    "Which enzyme fixes carbon dioxide?",
]


Section = tuple[str, str]


def guide_parts(title: str = TITLE, sections: list[Section] | None = None) -> list[tuple[str, str]]:
    """The guide's parts, head first: (title, Markdown); ``sections`` replace :data:`SECTIONS`."""
    sections = [*(SECTIONS if sections is None else sections), GLOSSARY, COVERAGE]
    return [(title, head_markdown(title, OVERVIEW)), *((t, section_markdown(t, b)) for t, b in sections)]


def guide_markdown(title: str = TITLE, sections: list[Section] | None = None) -> str:
    """The whole guide's Markdown."""
    return join_guide([markdown for _title, markdown in guide_parts(title, sections)])


async def store_guide(
    store: JobStore[Job],
    db: AsyncDatabaseManager,
    folder: Path,
    *,
    finished: bool = True,
    title: str = TITLE,
    root_id: uuid.UUID | None = None,
    sections: list[Section] | None = None,
) -> tuple[uuid.UUID, uuid.UUID]:
    """A done ``ingest`` root (or the root ``root_id``: a guide written again) and its ``generate`` child that
    stored the guide's parts (and, when ``finished``, the ``study_guides`` row and its file, and is done);
    returns the two ids."""
    if root_id is None:
        root = await store.enqueue("ingest", title=f"{title}.pdf", params={"path": f"/nowhere/{title}.pdf"})
        assert await store.claim(root.id) is not None
        await store.succeed(root.id)
        root_id = root.id
    child = await store.enqueue("generate", title=f"{title}.pdf", columns={"parent_id": root_id})
    assert await store.claim(child.id) is not None
    parts = guide_parts(title, sections)
    for position, (part_title, markdown) in enumerate(parts):
        await save_guide_part(db, child.id, position, part_title, markdown)
    if finished:
        path = folder / f"{title} - {child.id.hex[:8]}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(guide_markdown(title, sections), encoding="utf-8")
        async with db.get_session_context() as session:
            session.add(
                StudyGuide(
                    job_id=child.id,
                    title=title,
                    language="en",
                    path=str(path),
                    markdown=guide_markdown(title, sections),
                    section_count=len(parts) - 1,
                )
            )
        await store.succeed(child.id)
    return root_id, child.id
