"""Adding documents (:mod:`core.app.documents.adding`): a path that is not a document StudyJobs can take.

Plain data: :mod:`core.app.messages.catalog` joins the topics; add a sentence to both tables.
"""

from __future__ import annotations

__all__ = ["EN", "PT_BR"]

EN: dict[str, str] = {
    "add_not_found": "There is no file at {path}.",
    "add_folder": "The path {path} is a folder, not a document. Add the files inside it instead.",
    "add_pipe": "The path {path} is a pipe (FIFO), not a document file. Save the document to a file and add that.",
    "add_device": "The path {path} is a device, not a document file. Add a document file instead.",
    "add_socket": "The path {path} is a socket, not a document file. Add a document file instead.",
    "add_not_a_file": "The path {path} is not a regular file. Add a document file instead.",
    "add_unreadable": "StudyJobs cannot look at {path} ({reason}).",
    "add_unsupported": "StudyJobs cannot read {path}: it reads PDF, DOCX, EPUB, TXT, Markdown and HTML files.",
    "add_too_large": "The file {path} is larger than {max_mb} MB.",
}

PT_BR: dict[str, str] = {
    "add_not_found": "Não há arquivo em {path}.",
    "add_folder": "O caminho {path} é uma pasta, não um documento. Adicione os arquivos que estão dentro dela.",
    "add_pipe": (
        "O caminho {path} é um pipe (FIFO), não um arquivo de documento. Salve o documento em um arquivo e adicione-o."
    ),
    "add_device": "O caminho {path} é um dispositivo, não um arquivo de documento. Adicione um arquivo de documento.",
    "add_socket": "O caminho {path} é um socket, não um arquivo de documento. Adicione um arquivo de documento.",
    "add_not_a_file": "O caminho {path} não é um arquivo comum. Adicione um arquivo de documento.",
    "add_unreadable": "O StudyJobs não consegue acessar {path} ({reason}).",
    "add_unsupported": "O StudyJobs não consegue ler {path}: ele lê arquivos PDF, DOCX, EPUB, TXT, Markdown e HTML.",
    "add_too_large": "O arquivo {path} é maior que {max_mb} MB.",
}
