"""The language model (:mod:`daemon.llm.errors`) and model downloads (:mod:`daemon.downloads`).

Plain data: :mod:`core.app.messages.catalog` joins the topics; add a sentence to both tables.
"""

from __future__ import annotations

__all__ = ["EN", "PT_BR"]

EN: dict[str, str] = {
    # The language model (daemon.llm.errors).
    "llm_error": "The language model could not write the study guide. Check the model in Settings.",
    "llm_permanent": "The language model could not write the study guide. Check the model in Settings.",
    "llm_transient": "The language model is not available right now. StudyJobs will try again in a while.",
    "model_missing": "The language model file was not found. Choose the model again in Settings.",
    "model_unreadable": (
        "The language model file can't be used: it is damaged or it is not a GGUF model. Choose another model "
        "file in Settings."
    ),
    "model_architecture_unsupported": (
        "The model {file} is a {architecture} model, which this version of StudyJobs cannot run yet. Choose "
        "another model in Settings, or update StudyJobs."
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
    # studyjobs models check (core.app.models.check).
    "model_check_header": "model|hub answer|bytes|sha256|licence|gated",
    "model_check_bundled": "comes with StudyJobs ({source}), not from the hub: skipped",
    "model_check_missing": "{model}: the hub has no file {file} in {repo} at commit {revision}.",
    "model_check_missing_answer": (
        "{model}: the hub has no repository {repo} at commit {revision} (answer {status}), so no file {file}."
    ),
    "model_check_size": "{model}: the hub says the file has {actual} bytes; the catalog says {expected}.",
    "model_check_sha256": "{model}: the sha256 differs.\n    hub     {actual}\n    catalog {expected}",
    "model_check_licence": "{model}: the hub's licence tag is {actual}; the catalog says {expected}.",
    "model_check_gated": "{model}: the repository is gated ({gate}): it cannot be downloaded without an account.",
    "model_check_unreachable": "{model}: the hub could not be asked ({reason}).",
    "model_check_legend": "✓ agrees with the catalog, ✗ does not, · the catalog has no figure (the hub's is shown).",
    "model_check_failed": "{count} mismatch(es) between the catalog and the hub.",
    "model_check_passed": "All {count} downloadable entries match the hub.",
}

PT_BR: dict[str, str] = {
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
    "model_architecture_unsupported": (
        "O modelo {file} é um modelo {architecture}, que esta versão do StudyJobs ainda não consegue executar. "
        "Escolha outro modelo nas Configurações, ou atualize o StudyJobs."
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
    # studyjobs models check (core.app.models.check).
    "model_check_header": "modelo|resposta do hub|bytes|sha256|licença|restrito",
    "model_check_bundled": "vem com o StudyJobs ({source}), não do hub: ignorado",
    "model_check_missing": "{model}: o hub não tem o arquivo {file} em {repo} no commit {revision}.",
    "model_check_missing_answer": (
        "{model}: o hub não tem o repositório {repo} no commit {revision} (resposta {status}), então nem o arquivo "
        "{file}."
    ),
    "model_check_size": "{model}: o hub diz que o arquivo tem {actual} bytes; o catálogo diz {expected}.",
    "model_check_sha256": "{model}: o sha256 é diferente.\n    hub      {actual}\n    catálogo {expected}",
    "model_check_licence": "{model}: a licença marcada no hub é {actual}; o catálogo diz {expected}.",
    "model_check_gated": "{model}: o repositório é restrito ({gate}): não pode ser baixado sem uma conta.",
    "model_check_unreachable": "{model}: não foi possível consultar o hub ({reason}).",
    "model_check_legend": (
        "✓ confere com o catálogo, ✗ não confere, · o catálogo não tem o valor (é mostrado o do hub)."
    ),
    "model_check_failed": "{count} divergência(s) entre o catálogo e o hub.",
    "model_check_passed": "Todas as {count} entradas para download conferem com o hub.",
}
