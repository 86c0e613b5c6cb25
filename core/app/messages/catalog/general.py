"""Generic sentences and the worker's: something went wrong, a lost or stuck worker, time limits, the disk.

Plain data: :mod:`core.app.messages.catalog` joins the topics; add a sentence to both tables.
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
}
