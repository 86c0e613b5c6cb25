# Section 9 of the seed (001), "Vários estágios no próprio registro". Adapted: the import lines.
from typing import Any

from core import StageMap, StageStatus

STAGES: StageMap = StageMap(
    ["transcription", "summary", "suggestions"],
    prefix="doc_",
)
SUMMARY_STAGE: StageMap = StageMap(["summary"], prefix="doc_")


async def resumir(texto: str) -> str:
    """Trabalho longo.

    Args:
        texto (str): O texto a resumir.

    Returns:
        str: O resumo.
    """
    return texto[:100]


async def executar(documento: Any) -> None:
    """Roda o estágio e grava só se ainda for o dono dele.

    Args:
        documento (Any): O registro, recém-lido do banco.
    """
    SUMMARY_STAGE.mark(documento, "summary", StageStatus.RUNNING)
    resumo: str = await resumir("um texto longo")

    if SUMMARY_STAGE.owns(documento, "summary", StageStatus.RUNNING):
        SUMMARY_STAGE.mark(documento, "summary", StageStatus.DONE, result=resumo)


# --- driver (not part of the seed) ---
if __name__ == "__main__":
    import asyncio
    from types import SimpleNamespace

    doc = SimpleNamespace(doc_status_summary=None, doc_error_summary=None, doc_result_summary=None)
    asyncio.run(executar(doc))
    assert (doc.doc_status_summary, doc.doc_result_summary) == ("done", "um texto longo")
    assert STAGES.columns("summary") == ("doc_status_summary", "doc_error_summary", "doc_result_summary")
