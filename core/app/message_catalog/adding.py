"""Adding documents (:mod:`core.app.adding`): a path that is not a document StudyJobs can take.

Plain data: :mod:`core.app.message_catalog` joins the topics; add a sentence to both tables.
"""

from __future__ import annotations

__all__ = ["EN", "PT_BR"]

EN: dict[str, str] = {
    "add_not_found": "{path}: no such file.",
    "add_folder": "{path}: this is a folder, not a document. Add the files inside it instead.",
    "add_pipe": "{path}: this is a pipe (FIFO), not a document file. Save the document to a file and add that.",
    "add_device": "{path}: this is a device, not a document file. Add a document file instead.",
    "add_socket": "{path}: this is a socket, not a document file. Add a document file instead.",
    "add_not_a_file": "{path}: this is not a regular file. Add a document file instead.",
    "add_unreadable": "{path}: StudyJobs cannot look at this file ({reason}).",
    "add_unsupported": "{path}: not a document StudyJobs can read (PDF, DOCX, EPUB, TXT, Markdown, HTML).",
    "add_too_large": "{path}: larger than {max_mb} MB.",
}

PT_BR: dict[str, str] = {
    "add_not_found": "{path}: arquivo não encontrado.",
    "add_folder": "{path}: isto é uma pasta, não um documento. Adicione os arquivos que estão dentro dela.",
    "add_pipe": (
        "{path}: isto é um pipe (FIFO), não um arquivo de documento. Salve o documento em um arquivo e adicione-o."
    ),
    "add_device": "{path}: isto é um dispositivo, não um arquivo de documento. Adicione um arquivo de documento.",
    "add_socket": "{path}: isto é um socket, não um arquivo de documento. Adicione um arquivo de documento.",
    "add_not_a_file": "{path}: isto não é um arquivo comum. Adicione um arquivo de documento.",
    "add_unreadable": "{path}: o StudyJobs não consegue acessar este arquivo ({reason}).",
    "add_unsupported": (
        "{path}: não é um documento que o StudyJobs consiga ler (PDF, DOCX, EPUB, TXT, Markdown, HTML)."
    ),
    "add_too_large": "{path}: maior que {max_mb} MB.",
}
