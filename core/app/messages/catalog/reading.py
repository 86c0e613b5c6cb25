"""Reading documents (:mod:`daemon.readers.errors`): missing, encrypted, damaged or empty files.

Plain data: :mod:`core.app.messages.catalog` joins the topics; add a sentence to both tables.
"""

from __future__ import annotations

__all__ = ["EN", "PT_BR"]

EN: dict[str, str] = {
    # Reading documents (daemon.readers.errors).
    "file_missing": "The file was not found. It may have been moved, renamed or deleted: add it again.",
    "file_deleted": (
        "The file is no longer where it was when you added it: it was deleted, moved or renamed. Put it back, or "
        "add it again from its new place."
    ),
    "file_busy": (
        "The file is in use by another program, or it is still being copied or synced from a cloud folder. "
        "StudyJobs will try again in a while."
    ),
    "file_unreadable": (
        "StudyJobs is not allowed to open this file. Check that you can open it yourself, or copy it to your "
        "Documents folder and add the copy."
    ),
    "empty_file": "This file is empty (0 bytes). Add a copy that has the document in it.",
    "too_large": (
        "This file is too large ({size_mb} MB). StudyJobs reads files of up to {max_mb} MB: split it into "
        "smaller parts and add them one by one."
    ),
    "unsupported_format": (
        "StudyJobs can't read this kind of file. It reads PDF, Word (.docx), EPUB, text, Markdown and HTML "
        "files: save the document in one of these formats and add it again."
    ),
    "unsupported_format:docx": (
        "This is an old Word document (.doc) or another kind of file with a .docx name. Open it in Word or "
        "LibreOffice, save it as .docx and add it again."
    ),
    "not_a_pdf": (
        "This file is named .pdf but it is not a PDF. Open it in the program that made it, save or export it "
        "as PDF and add it again."
    ),
    "wrong_format": (
        "This file's name does not match what is inside it. Save the document in the format its name says and add "
        "it again."
    ),
    "wrong_format:docx": (
        "This file is named .docx but it is not a Word document. Open it in the program that made it, save it as "
        "a Word document (.docx) and add it again."
    ),
    "wrong_format:epub": (
        "This file is named .epub but it is not an e-book. Open it in the program that made it, save or export it "
        "as EPUB and add it again."
    ),
    "zero_filled": (
        "This file has {size} bytes but all of them are empty (zeros), with no document in them, as happens when "
        "a download, a copy or a cloud sync did not finish. Get the file again and add it again."
    ),
    "corrupt_file": "This file is damaged and can't be read. Get a new copy of it and add it again.",
    "truncated": (
        "This file is incomplete: it stops at byte {size}, before the end of the document, as happens when a "
        "download or a copy is interrupted. Get the whole file again and add it again."
    ),
    "archive_too_large": (
        "This file would unpack to more than {max_mb} MB, far more than a document holds, so StudyJobs did not "
        "open it. It may be damaged or made to harm the computer: get the document from a source you trust."
    ),
    "archive_entries": (
        "This file is made of {count} pieces, more than the {max_count} a document has, so StudyJobs did not open "
        "it. It may be damaged or made to harm the computer: get the document from a source you trust."
    ),
    "unsafe_names": (
        "This file has pieces whose names point outside of it, which a real document never has, so StudyJobs did "
        "not open it. It may be made to harm the computer: get the document from a source you trust."
    ),
    "unsafe_xml": (
        "This file asks to multiply its text or to fetch other files or web addresses, which a real document "
        "does not need, so StudyJobs did not open it. It may be made to harm the computer: get the document from "
        "a source you trust."
    ),
    "encrypted": (
        "This file is protected by a password or against copying. Remove the protection and add the file again."
    ),
    "encrypted:pdf": "This PDF is password-protected. Remove the password and add the file again.",
    "encrypted:docx": (
        "This Word document is password-protected. Open it in Word, remove the password, save it and add it again."
    ),
    "encrypted:epub": (
        "This e-book is protected against copying (DRM), so its text can't be read. Use a copy without DRM."
    ),
    "no_text": "This document has no text to read. Check that you added the right file.",
    "no_text:pdf": (
        "This PDF has no text StudyJobs can read, not even in its pictures: its pages hold drawings or pictures "
        "without words. Check that you added the right file."
    ),
    "no_text:pdf_scanned": (
        "This PDF has no text StudyJobs can read: its pages are probably scanned pictures, and text recognition "
        "is not installed with this copy of StudyJobs. Run it through a text recognition (OCR) program and add "
        "the result."
    ),
    "blank_pages": (
        "The pages of this PDF are blank: they hold no text and no pictures. Check that you added the right file."
    ),
    "reader_crashed": (
        "StudyJobs stopped reading this file because reading it made the reading program fail. The file may be "
        "damaged or made to harm the computer: open it in the program that made it, save it again and add the copy."
    ),
    "reader_killed": (
        "The computer stopped the reading of this file, probably because it ran short of memory. StudyJobs will "
        "try again in a while."
    ),
    "reader_out_of_memory": (
        "Reading this file needed more than {max_mb} MB of memory, far more than a document of its size needs, so "
        "StudyJobs stopped. The file may be damaged or made to harm the computer: get the document from a source "
        "you trust."
    ),
    "reader_too_slow": (
        "Reading this file took longer than {seconds} seconds, far longer than a document of its size needs, so "
        "StudyJobs stopped. The file may be damaged or made to harm the computer: get the document from a source "
        "you trust."
    ),
    "text_too_large": (
        "This file holds {chars} characters of text, more than the {max_chars} StudyJobs reads from a file of its "
        "size. Split the document into smaller parts and add them one by one."
    ),
}

PT_BR: dict[str, str] = {
    "file_missing": (
        "O arquivo não foi encontrado. Ele pode ter sido movido, renomeado ou apagado: adicione-o de novo."
    ),
    "file_deleted": (
        "O arquivo não está mais onde estava quando você o adicionou: ele foi apagado, movido ou renomeado. "
        "Coloque-o de volta, ou adicione-o de novo a partir do novo lugar."
    ),
    "file_busy": (
        "O arquivo está sendo usado por outro programa, ou ainda está sendo copiado ou sincronizado de uma pasta "
        "na nuvem. O StudyJobs vai tentar de novo daqui a pouco."
    ),
    "file_unreadable": (
        "O StudyJobs não tem permissão para abrir este arquivo. Verifique se você consegue abri-lo, ou copie-o "
        "para a sua pasta Documentos e adicione a cópia."
    ),
    "empty_file": "Este arquivo está vazio (0 bytes). Adicione uma cópia que tenha o documento.",
    "too_large": (
        "Este arquivo é grande demais ({size_mb} MB). O StudyJobs lê arquivos de até {max_mb} MB: divida-o em "
        "partes menores e adicione uma de cada vez."
    ),
    "unsupported_format": (
        "O StudyJobs não lê este tipo de arquivo. Ele lê arquivos PDF, Word (.docx), EPUB, texto, Markdown e "
        "HTML: salve o documento em um desses formatos e adicione-o de novo."
    ),
    "unsupported_format:docx": (
        "Este é um documento antigo do Word (.doc) ou outro tipo de arquivo com nome .docx. Abra-o no Word ou "
        "no LibreOffice, salve como .docx e adicione-o de novo."
    ),
    "not_a_pdf": (
        "Este arquivo tem o nome .pdf, mas não é um PDF. Abra-o no programa que o criou, salve ou exporte como "
        "PDF e adicione-o de novo."
    ),
    "wrong_format": (
        "O nome deste arquivo não corresponde ao que há dentro dele. Salve o documento no formato que o nome diz e "
        "adicione-o de novo."
    ),
    "wrong_format:docx": (
        "Este arquivo tem o nome .docx, mas não é um documento do Word. Abra-o no programa que o criou, salve como "
        "documento do Word (.docx) e adicione-o de novo."
    ),
    "wrong_format:epub": (
        "Este arquivo tem o nome .epub, mas não é um livro digital. Abra-o no programa que o criou, salve ou "
        "exporte como EPUB e adicione-o de novo."
    ),
    "zero_filled": (
        "Este arquivo tem {size} bytes, mas todos estão vazios (zeros), sem documento nenhum, como acontece quando "
        "um download, uma cópia ou uma sincronização com a nuvem não terminou. Obtenha o arquivo de novo e "
        "adicione-o outra vez."
    ),
    "corrupt_file": (
        "Este arquivo está danificado e não pode ser lido. Consiga uma nova cópia dele e adicione-a de novo."
    ),
    "truncated": (
        "Este arquivo está incompleto: ele termina no byte {size}, antes do fim do documento, como acontece quando "
        "um download ou uma cópia é interrompido. Obtenha o arquivo inteiro de novo e adicione-o outra vez."
    ),
    "archive_too_large": (
        "Este arquivo se expandiria para mais de {max_mb} MB, muito mais do que um documento tem, por isso o "
        "StudyJobs não o abriu. Ele pode estar danificado ou ter sido feito para prejudicar o computador: obtenha "
        "o documento de uma fonte confiável."
    ),
    "archive_entries": (
        "Este arquivo é formado por {count} partes, mais do que as {max_count} que um documento tem, por isso o "
        "StudyJobs não o abriu. Ele pode estar danificado ou ter sido feito para prejudicar o computador: obtenha "
        "o documento de uma fonte confiável."
    ),
    "unsafe_names": (
        "Este arquivo tem partes com nomes que apontam para fora dele, o que um documento de verdade nunca tem, "
        "por isso o StudyJobs não o abriu. Ele pode ter sido feito para prejudicar o computador: obtenha o "
        "documento de uma fonte confiável."
    ),
    "unsafe_xml": (
        "Este arquivo pede para multiplicar o seu texto ou para buscar outros arquivos ou endereços da internet, "
        "o que um documento de verdade não precisa, por isso o StudyJobs não o abriu. Ele pode ter sido feito "
        "para prejudicar o computador: obtenha o documento de uma fonte confiável."
    ),
    "encrypted": (
        "Este arquivo está protegido por senha ou contra cópia. Remova a proteção e adicione o arquivo de novo."
    ),
    "encrypted:pdf": "Este PDF está protegido por senha. Remova a senha e adicione o arquivo de novo.",
    "encrypted:docx": (
        "Este documento do Word está protegido por senha. Abra-o no Word, remova a senha, salve e adicione-o de novo."
    ),
    "encrypted:epub": (
        "Este livro digital está protegido contra cópia (DRM), por isso o texto não pode ser lido. Use uma "
        "cópia sem DRM."
    ),
    "no_text": "Este documento não tem texto para ler. Verifique se você adicionou o arquivo certo.",
    "no_text:pdf": (
        "Este PDF não tem texto que o StudyJobs consiga ler, nem mesmo nas imagens: as páginas têm desenhos ou "
        "imagens sem palavras. Verifique se você adicionou o arquivo certo."
    ),
    "no_text:pdf_scanned": (
        "Este PDF não tem texto que o StudyJobs consiga ler: as páginas provavelmente são imagens digitalizadas, e "
        "o reconhecimento de texto não está instalado nesta cópia do StudyJobs. Passe-o por um programa de "
        "reconhecimento de texto (OCR) e adicione o resultado."
    ),
    "blank_pages": (
        "As páginas deste PDF estão em branco: não têm texto nem imagens. Verifique se você adicionou o arquivo certo."
    ),
    "reader_crashed": (
        "O StudyJobs parou de ler este arquivo porque a leitura fez o programa de leitura falhar. O arquivo pode "
        "estar danificado ou ter sido feito para prejudicar o computador: abra-o no programa que o criou, salve-o "
        "de novo e adicione a cópia."
    ),
    "reader_killed": (
        "O computador interrompeu a leitura deste arquivo, provavelmente porque ficou sem memória. O StudyJobs vai "
        "tentar de novo daqui a pouco."
    ),
    "reader_out_of_memory": (
        "Ler este arquivo precisou de mais de {max_mb} MB de memória, muito mais do que um documento do tamanho "
        "dele precisa, por isso o StudyJobs parou. O arquivo pode estar danificado ou ter sido feito para "
        "prejudicar o computador: obtenha o documento de uma fonte confiável."
    ),
    "reader_too_slow": (
        "Ler este arquivo levou mais de {seconds} segundos, muito mais do que um documento do tamanho dele precisa, "
        "por isso o StudyJobs parou. O arquivo pode estar danificado ou ter sido feito para prejudicar o "
        "computador: obtenha o documento de uma fonte confiável."
    ),
    "text_too_large": (
        "Este arquivo tem {chars} caracteres de texto, mais do que os {max_chars} que o StudyJobs lê de um arquivo "
        "do tamanho dele. Divida o documento em partes menores e adicione uma de cada vez."
    ),
}
