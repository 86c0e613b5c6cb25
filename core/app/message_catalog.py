"""The sentences StudyJobs stores for the user, by code, in English and Brazilian Portuguese (plain data).

Each template uses :meth:`str.format` placeholders. A key ``code:format`` is a sharper sentence for one file format
(``encrypted:pdf``). :mod:`core.app.messages` looks them up; add a sentence to both tables.
"""

from __future__ import annotations

__all__ = ["EN", "PT_BR"]

EN: dict[str, str] = {
    # Generic and worker.
    "unknown_error": (
        "Something went wrong while working on this document. Try again; if it happens again, the log file "
        "has the details."
    ),
    "internal_error": (
        "Something went wrong inside StudyJobs while working on this document. Try again; if it happens again, "
        "the log file has the details."
    ),
    "worker_lost": "The program working on this job stopped responding.",
    "worker_crashed": "The program working on this job stopped unexpectedly.",
    "stopped": "Stopped on request.",
    "document_missing": "The document of this job is no longer saved in StudyJobs. Add the file again.",
    "time_limit": (
        "This took longer than its time limit ({minutes} min) and was stopped. If the document is very long or the "
        "computer was busy, raise the time limits in the settings file (the [limits] part) and try again."
    ),
    "time_limit_server": (
        "The model server took longer than the time limit ({minutes} min) and the work was stopped. StudyJobs will "
        "try again in a while."
    ),
    "job_stuck": (
        "This job stopped responding, so StudyJobs restarted the program working on it. It will try again in a while."
    ),
    "disk_full": "The disk is full, so StudyJobs could not save its work. Free some space and try again.",
    "disk_full_output": (
        "The disk of the folder {folder} is full, so the study guide could not be saved there. Free some space, "
        "or choose another output folder in Settings, and try again."
    ),
    "disk_full_database": (
        "The disk that holds StudyJobs's data is full, so this job's work could not be saved. Nothing was lost: "
        "free some space and try again."
    ),
    "database_busy": "The StudyJobs database was busy for too long. StudyJobs will try again in a while.",
    "database_unreachable": (
        "The connection to the StudyJobs database was lost during this job. StudyJobs will try again in a while."
    ),
    "file_changed": "The file changed after it was added: StudyJobs read its new content.",
    "output_unwritable": (
        "StudyJobs could not save the study guide in the folder {folder} ({reason}). Choose another output "
        "folder in Settings."
    ),
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
        "This PDF has no text StudyJobs can read: its pages are probably scanned pictures. Run it through a "
        "text recognition (OCR) program and add the result."
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
    # The language model (daemon.llm.errors).
    "llm_error": "The language model could not write the study guide. Check the model in Settings.",
    "llm_permanent": "The language model could not write the study guide. Check the model in Settings.",
    "llm_transient": "The language model is not available right now. StudyJobs will try again in a while.",
    "model_missing": "The language model file was not found. Choose the model again in Settings.",
    "model_unreadable": (
        "The language model file can't be used: it is damaged or it is not a GGUF model. Choose another model "
        "file in Settings."
    ),
    "cpu_unsupported": (
        "This computer's processor cannot run the built-in language model (it needs a processor with AVX2, made "
        "in 2013 or later). Choose a model server in Settings."
    ),
    "context_overflow": (
        "The text is too long for this language model. Choose a model that takes longer texts in Settings."
    ),
    "invalid_output": (
        "The language model gave an answer that could not be used. Try again, or choose a larger model in Settings."
    ),
    "generation_failed": (
        "The language model stopped with an error while writing. Try again; if it happens again, choose another "
        "model in Settings."
    ),
    "bad_request": ("The model server refused the request. Check the server address and the model name in Settings."),
    "unauthorized": "The model server did not accept the access key. Check the key in Settings.",
    "unknown_model": "The model server does not have the model named in Settings. Check the model name.",
    "server_unreachable": (
        "Could not reach the model server. Check that it is running and that its address in Settings is right; "
        "StudyJobs will try again in a while."
    ),
    "server_timeout": "The model server took too long to answer. StudyJobs will try again in a while.",
    "timeout": "The model server took too long to answer. StudyJobs will try again in a while.",
    "rate_limited": "The model server is receiving too many requests right now. StudyJobs will try again in a while.",
    "server_error": "The model server had a problem on its side. StudyJobs will try again in a while.",
    # Progress.
    "reading": "Reading the document…",
    "reading_page": "Reading page {done} of {total}…",
    "reading_part": "Reading part {done} of {total}…",
    "cleaning": "Cleaning up the text…",
    "saving": "Saving…",
    "loading_model": "Loading the language model…",
    "outlining": "Planning the study guide…",
    "outlining_part": "Planning the study guide: part {current} of {total}…",
    "writing_section": "Writing section {current} of {total}…",
    "exporting": "Saving the study guide…",
    "section_from_quotes": (
        "Section {number} ({title}) was written from quotes of the document: the model's text failed the check."
    ),
    "section_from_quotes:ungrounded": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text said what its pages do not say."
    ),
    "section_from_quotes:repeated_sentence": (
        "Section {number} ({title}) was written from quotes of the document: the model's text repeated a sentence."
    ),
    "section_from_quotes:repeated_words": (
        "Section {number} ({title}) was written from quotes of the document: the model's text repeated itself."
    ),
    "section_from_quotes:unknown_words": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text had words that are not in the dictionary."
    ),
    "section_from_quotes:wrong_language": (
        "Section {number} ({title}) was written from quotes of the document: the model's text was in another language."
    ),
    "section_from_quotes:too_short": (
        "Section {number} ({title}) was written from quotes of the document: the model's text was too short."
    ),
    "section_from_quotes:copied": (
        "Section {number} ({title}) was written from quotes of the document: "
        "the model's text copied the document word for word."
    ),
    "waiting_retry": "Waiting to try again…",
    # Counters (core.app.counters), joined with " · ".
    "count_pages": "page {done} of {total}",
    "count_parts": "part {done} of {total}",
    "count_outline": "planning part {done} of {total}",
    "count_sections": "section {done} of {total}",
    "count_plan": "plan: {sections} sections from {tokens} tokens",
    "count_plan_chapters": "plan: {sections} sections from the document's chapters, {tokens} tokens",
    "count_plan_time": "about {minutes} min",
    "count_plan_one": "plan: one section from {tokens} tokens",
    "count_plan_chapters_one": "plan: one section from the document's chapters, {tokens} tokens",
    # Model downloads (daemon.downloads).
    "model_server_busy": (
        "The model's download server is busy or unavailable right now (answer {status}). StudyJobs will try again "
        "in a while; what was already downloaded is kept."
    ),
    "model_forbidden": (
        "The download server refused to send this model (answer {status}). It may need an account; choose another "
        "model."
    ),
    "model_not_found": "This model file was not found on the download server. Choose another model.",
    "model_http_error": "The download server gave an unexpected answer ({status}). Try again later.",
    "model_network": (
        "The connection broke while downloading the model. StudyJobs will try again; what was already downloaded "
        "is kept."
    ),
    "model_unverifiable": (
        "StudyJobs could not learn the size and checksum of {file}, so it cannot check the download. Nothing was saved."
    ),
    "model_changed": (
        "The file {file} on the download server is not the one StudyJobs expects. Nothing was saved; choose another "
        "model or update StudyJobs."
    ),
    "model_no_space": (
        "There is not enough free disk space for this model: it needs {needed_mb} MB and {free_mb} MB are free. "
        "Free some space or choose a smaller model."
    ),
    "model_corrupt": (
        "The downloaded file {file} was damaged on the way (its checksum does not match), so it was deleted. Try again."
    ),
    "downloading_model": "Downloading the model: {done_mb} of {total_mb} MB…",
    "verifying_model": "Checking the downloaded model…",
    "testing_model": "Opening the model to test it…",
    "model_downloaded": "The model {file} was downloaded and checked, and is ready to use.",
    "model_unloadable": (
        "The downloaded model {file} could not be opened by this version of StudyJobs, so it was deleted. Choose "
        "another model."
    ),
    "model_too_big": (
        "The model {model} needs {needed_mb} MB of memory with a context of {context} tokens, but only "
        "{available_mb} MB are free on this computer. Choose a smaller model, such as {suggestion}, in Settings, or "
        "close other programs and try again."
    ),
    "model_too_big_computer": (
        "The model {model} needs {needed_mb} MB of memory with a context of {context} tokens, more than this "
        "computer has ({total_mb} MB), so it was not downloaded. Choose a smaller model in Settings."
    ),
    "model_downloaded_untested": (
        "The model {file} was downloaded and checked. It was not opened for a test: it needs {needed_mb} MB of "
        "memory and {available_mb} MB are free now. Close other programs before using it."
    ),
    "model_too_big_no_smaller": (
        "The model {model} needs {needed_mb} MB of memory with a context of {context} tokens, but only "
        "{available_mb} MB are free on this computer, too little for any model StudyJobs offers for download. Close "
        "other programs and try again, or choose the built-in demo model or a model server in Settings."
    ),
}

PT_BR: dict[str, str] = {
    "unknown_error": (
        "Algo deu errado ao trabalhar neste documento. Tente de novo; se acontecer outra vez, o arquivo de "
        "registro (log) tem os detalhes."
    ),
    "internal_error": (
        "Algo deu errado dentro do StudyJobs ao trabalhar neste documento. Tente de novo; se acontecer outra vez, "
        "o arquivo de registro (log) tem os detalhes."
    ),
    "worker_lost": "O programa que estava trabalhando nesta tarefa parou de responder.",
    "worker_crashed": "O programa que estava trabalhando nesta tarefa parou inesperadamente.",
    "stopped": "Interrompido a pedido.",
    "document_missing": "O documento desta tarefa não está mais salvo no StudyJobs. Adicione o arquivo de novo.",
    "time_limit": (
        "Isto levou mais tempo que o limite ({minutes} min) e foi interrompido. Se o documento é muito longo ou o "
        "computador estava ocupado, aumente os limites de tempo no arquivo de configurações (a parte [limits]) e "
        "tente de novo."
    ),
    "time_limit_server": (
        "O servidor do modelo levou mais tempo que o limite ({minutes} min) e o trabalho foi interrompido. O "
        "StudyJobs vai tentar de novo daqui a pouco."
    ),
    "job_stuck": (
        "Esta tarefa parou de responder, então o StudyJobs reiniciou o programa que trabalhava nela. Ele vai tentar "
        "de novo daqui a pouco."
    ),
    "disk_full": (
        "O disco está cheio, então o StudyJobs não conseguiu salvar o trabalho. Libere espaço e tente de novo."
    ),
    "disk_full_output": (
        "O disco da pasta {folder} está cheio, então o guia de estudo não pôde ser salvo lá. Libere espaço, ou "
        "escolha outra pasta de saída nas Configurações, e tente de novo."
    ),
    "disk_full_database": (
        "O disco onde ficam os dados do StudyJobs está cheio, então o trabalho desta tarefa não pôde ser salvo. "
        "Nada foi perdido: libere espaço e tente de novo."
    ),
    "database_busy": (
        "O banco de dados do StudyJobs ficou ocupado por tempo demais. O StudyJobs vai tentar de novo daqui a pouco."
    ),
    "database_unreachable": (
        "A conexão com o banco de dados do StudyJobs caiu durante esta tarefa. O StudyJobs vai tentar de novo "
        "daqui a pouco."
    ),
    "file_changed": "O arquivo mudou depois de ser adicionado: o StudyJobs leu o conteúdo novo.",
    "output_unwritable": (
        "O StudyJobs não conseguiu salvar o guia de estudo na pasta {folder} ({reason}). Escolha outra pasta de "
        "saída nas Configurações."
    ),
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
        "Este PDF não tem texto que o StudyJobs consiga ler: as páginas provavelmente são imagens digitalizadas. "
        "Passe-o por um programa de reconhecimento de texto (OCR) e adicione o resultado."
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
    "llm_error": "O modelo de linguagem não conseguiu escrever o guia de estudo. Verifique o modelo nas Configurações.",
    "llm_permanent": (
        "O modelo de linguagem não conseguiu escrever o guia de estudo. Verifique o modelo nas Configurações."
    ),
    "llm_transient": ("O modelo de linguagem não está disponível agora. O StudyJobs vai tentar de novo daqui a pouco."),
    "model_missing": (
        "O arquivo do modelo de linguagem não foi encontrado. Escolha o modelo de novo nas Configurações."
    ),
    "model_unreadable": (
        "O arquivo do modelo de linguagem não pode ser usado: está danificado ou não é um modelo GGUF. Escolha "
        "outro arquivo de modelo nas Configurações."
    ),
    "cpu_unsupported": (
        "O processador deste computador não consegue executar o modelo de linguagem embutido (é preciso um "
        "processador com AVX2, fabricado a partir de 2013). Escolha um servidor de modelo nas Configurações."
    ),
    "context_overflow": (
        "O texto é longo demais para este modelo de linguagem. Escolha nas Configurações um modelo que aceite "
        "textos mais longos."
    ),
    "invalid_output": (
        "O modelo de linguagem deu uma resposta que não pôde ser usada. Tente de novo, ou escolha um modelo "
        "maior nas Configurações."
    ),
    "generation_failed": (
        "O modelo de linguagem parou com um erro enquanto escrevia. Tente de novo; se acontecer outra vez, "
        "escolha outro modelo nas Configurações."
    ),
    "bad_request": (
        "O servidor do modelo recusou o pedido. Verifique o endereço do servidor e o nome do modelo nas Configurações."
    ),
    "unauthorized": "O servidor do modelo não aceitou a chave de acesso. Verifique a chave nas Configurações.",
    "unknown_model": ("O servidor do modelo não tem o modelo indicado nas Configurações. Verifique o nome do modelo."),
    "server_unreachable": (
        "Não foi possível falar com o servidor do modelo. Verifique se ele está ligado e se o endereço nas "
        "Configurações está certo; o StudyJobs vai tentar de novo daqui a pouco."
    ),
    "server_timeout": (
        "O servidor do modelo demorou demais para responder. O StudyJobs vai tentar de novo daqui a pouco."
    ),
    "timeout": "O servidor do modelo demorou demais para responder. O StudyJobs vai tentar de novo daqui a pouco.",
    "rate_limited": (
        "O servidor do modelo está recebendo pedidos demais agora. O StudyJobs vai tentar de novo daqui a pouco."
    ),
    "server_error": "O servidor do modelo teve um problema. O StudyJobs vai tentar de novo daqui a pouco.",
    "reading": "Lendo o documento…",
    "reading_page": "Lendo página {done} de {total}…",
    "reading_part": "Lendo parte {done} de {total}…",
    "cleaning": "Limpando o texto…",
    "saving": "Salvando…",
    "loading_model": "Carregando o modelo de linguagem…",
    "outlining": "Planejando o guia de estudo…",
    "outlining_part": "Planejando o guia de estudo: parte {current} de {total}…",
    "writing_section": "Escrevendo a seção {current} de {total}…",
    "exporting": "Salvando o guia de estudo…",
    "section_from_quotes": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo não passou na verificação."
    ),
    "section_from_quotes:ungrounded": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo dizia o que suas páginas não dizem."
    ),
    "section_from_quotes:repeated_sentence": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo repetia uma frase."
    ),
    "section_from_quotes:repeated_words": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo se repetia."
    ),
    "section_from_quotes:unknown_words": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo tinha palavras que não estão no dicionário."
    ),
    "section_from_quotes:wrong_language": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo estava em outro idioma."
    ),
    "section_from_quotes:too_short": (
        "A seção {number} ({title}) foi feita com citações do documento: o texto do modelo era curto demais."
    ),
    "section_from_quotes:copied": (
        "A seção {number} ({title}) foi feita com citações do documento: "
        "o texto do modelo copiava o documento palavra por palavra."
    ),
    "waiting_retry": "Aguardando para tentar de novo…",
    "count_pages": "página {done} de {total}",
    "count_parts": "parte {done} de {total}",
    "count_outline": "planejamento: parte {done} de {total}",
    "count_sections": "seção {done} de {total}",
    "count_plan": "plano: {sections} seções a partir de {tokens} tokens",
    "count_plan_chapters": "plano: {sections} seções a partir dos capítulos do documento, {tokens} tokens",
    "count_plan_time": "cerca de {minutes} min",
    "count_plan_one": "plano: uma seção a partir de {tokens} tokens",
    "count_plan_chapters_one": "plano: uma seção a partir dos capítulos do documento, {tokens} tokens",
    # Downloads de modelos (daemon.downloads).
    "model_server_busy": (
        "O servidor de download do modelo está ocupado ou indisponível agora (resposta {status}). O StudyJobs vai "
        "tentar de novo daqui a pouco; o que já foi baixado é mantido."
    ),
    "model_forbidden": (
        "O servidor de download se recusou a enviar este modelo (resposta {status}). Ele pode exigir uma conta; "
        "escolha outro modelo."
    ),
    "model_not_found": "Este arquivo de modelo não foi encontrado no servidor de download. Escolha outro modelo.",
    "model_http_error": "O servidor de download deu uma resposta inesperada ({status}). Tente de novo mais tarde.",
    "model_network": (
        "A conexão caiu durante o download do modelo. O StudyJobs vai tentar de novo; o que já foi baixado é mantido."
    ),
    "model_unverifiable": (
        "O StudyJobs não conseguiu saber o tamanho e a soma de verificação de {file}, então não pode conferir o "
        "download. Nada foi salvo."
    ),
    "model_changed": (
        "O arquivo {file} no servidor de download não é o que o StudyJobs espera. Nada foi salvo; escolha outro "
        "modelo ou atualize o StudyJobs."
    ),
    "model_no_space": (
        "Não há espaço livre suficiente no disco para este modelo: ele precisa de {needed_mb} MB e há {free_mb} MB "
        "livres. Libere espaço ou escolha um modelo menor."
    ),
    "model_corrupt": (
        "O arquivo baixado {file} chegou danificado (a soma de verificação não confere), então foi apagado. Tente "
        "de novo."
    ),
    "downloading_model": "Baixando o modelo: {done_mb} de {total_mb} MB…",
    "verifying_model": "Conferindo o modelo baixado…",
    "testing_model": "Abrindo o modelo para testá-lo…",
    "model_downloaded": "O modelo {file} foi baixado e conferido e está pronto para usar.",
    "model_unloadable": (
        "O modelo baixado {file} não pôde ser aberto por esta versão do StudyJobs, então foi apagado. Escolha "
        "outro modelo."
    ),
    "model_too_big": (
        "O modelo {model} precisa de {needed_mb} MB de memória com um contexto de {context} tokens, mas só há "
        "{available_mb} MB livres neste computador. Escolha nas Configurações um modelo menor, como {suggestion}, "
        "ou feche outros programas e tente de novo."
    ),
    "model_too_big_computer": (
        "O modelo {model} precisa de {needed_mb} MB de memória com um contexto de {context} tokens, mais do que "
        "este computador tem ({total_mb} MB), então não foi baixado. Escolha nas Configurações um modelo menor."
    ),
    "model_downloaded_untested": (
        "O modelo {file} foi baixado e conferido. Ele não foi aberto para um teste: precisa de {needed_mb} MB de "
        "memória e há {available_mb} MB livres agora. Feche outros programas antes de usá-lo."
    ),
    "model_too_big_no_smaller": (
        "O modelo {model} precisa de {needed_mb} MB de memória com um contexto de {context} tokens, mas só há "
        "{available_mb} MB livres neste computador, pouco demais para qualquer modelo que o StudyJobs oferece para "
        "baixar. Feche outros programas e tente de novo, ou escolha nas Configurações o modelo de demonstração "
        "embutido ou um servidor de modelo."
    ),
}
