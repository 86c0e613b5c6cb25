<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="pt_BR" sourcelanguage="en">
<context>
    <name>AddDialog</name>
    <message>
        <source>Add documents</source>
        <translation>Adicionar documentos</translation>
    </message>
    <message>
        <source>These documents will be added:</source>
        <translation>Estes documentos serão adicionados:</translation>
    </message>
    <message>
        <source>Documents to add</source>
        <translation>Documentos a adicionar</translation>
    </message>
    <message>
        <source>What should StudyJobs make of them?</source>
        <translation>O que o StudyJobs deve fazer com eles?</translation>
    </message>
    <message>
        <source>A &amp;study guide (reads the text, then writes the guide)</source>
        <translation>Um &amp;guia de estudo (lê o texto e depois escreve o guia)</translation>
    </message>
    <message>
        <source>&amp;Only the text (extraction, no guide)</source>
        <translation>&amp;Somente o texto (extração, sem guia)</translation>
    </message>
    <message>
        <source>Language of the study guide:</source>
        <translation>Idioma do guia de estudo:</translation>
    </message>
    <message>
        <source>Language of the study guide</source>
        <translation>Idioma do guia de estudo</translation>
    </message>
    <message>
        <source>The document&apos;s language</source>
        <translation>O idioma do documento</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Adicionar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
</context>
<context>
    <name>ApiKeyField</name>
    <message>
        <source>API key</source>
        <translation>Chave de API</translation>
    </message>
    <message>
        <source>Only for servers that ask for one</source>
        <translation>Só para servidores que pedem uma</translation>
    </message>
    <message>
        <source>Reading the API key from the system keyring…</source>
        <translation>Lendo a chave de API no chaveiro do sistema…</translation>
    </message>
    <message>
        <source>The API key comes from the environment variable {name}.</source>
        <translation>A chave de API vem da variável de ambiente {name}.</translation>
    </message>
    <message>
        <source>This computer has no system keyring (on Linux, no Secret Service is running), so StudyJobs cannot keep an API key safely. Set the environment variable {name} for the worker instead.</source>
        <translation>Este computador não tem um chaveiro do sistema (no Linux, nenhum Secret Service está em execução), então o StudyJobs não pode guardar uma chave de API com segurança. Defina a variável de ambiente {name} para o processador em vez disso.</translation>
    </message>
    <message>
        <source>Your key is still written in the settings file; once {name} is set, remove it from there.</source>
        <translation>Sua chave ainda está escrita no arquivo de configurações; depois de definir {name}, remova-a de lá.</translation>
    </message>
    <message>
        <source>Kept in the system keyring ({keyring}), never in the settings file.</source>
        <translation>Guardada no chaveiro do sistema ({keyring}), nunca no arquivo de configurações.</translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>Trying StudyJobs without a download: it works offline; its guides quote key passages instead of summaries.</source>
        <translation>Para experimentar o StudyJobs sem baixar nada: funciona sem internet; seus guias citam os trechos principais em vez de resumir.</translation>
    </message>
    <message>
        <source>Laptops with 8 GB of RAM: clear guides in Portuguese and English, never stops to think aloud.</source>
        <translation>Notebooks com 8 GB de RAM: guias claros em português e inglês, sem parar para pensar em voz alta.</translation>
    </message>
    <message>
        <source>Lighter laptops: the smallest download here, the maker&apos;s own file, lists Portuguese.</source>
        <translation>Notebooks mais leves: o menor download da lista, o arquivo do próprio fabricante, inclui o português.</translation>
    </message>
    <message>
        <source>Computers with 8 GB of RAM or more: a newer Qwen, run with its thinking turned off.</source>
        <translation>Computadores com 8 GB de RAM ou mais: um Qwen mais novo, executado com o raciocínio desligado.</translation>
    </message>
    <message>
        <source>Computers with 16 GB of RAM: the best guides of this list, slower on a laptop.</source>
        <translation>Computadores com 16 GB de RAM: os melhores guias desta lista, mais lento em um notebook.</translation>
    </message>
</context>
<context>
    <name>DaemonBar</name>
    <message>
        <source>Looking for the worker…</source>
        <translation>Procurando o processador…</translation>
    </message>
    <message>
        <source>Worker status</source>
        <translation>Estado do processador</translation>
    </message>
    <message>
        <source>Start the worker</source>
        <translation>Iniciar o processador</translation>
    </message>
    <message>
        <source>Starting the worker…</source>
        <translation>Iniciando o processador…</translation>
    </message>
    <message>
        <source>The worker will start again with the new settings when its job ends.</source>
        <translation>O processador vai reiniciar com as novas configurações quando o trabalho atual terminar.</translation>
    </message>
    <message>
        <source>Restarting the worker to use the new settings…</source>
        <translation>Reiniciando o processador para usar as novas configurações…</translation>
    </message>
    <message>
        <source>The worker could not start: {error}</source>
        <translation>Não foi possível iniciar o processador: {error}</translation>
    </message>
    <message>
        <source>See the log files for details.</source>
        <translation>Veja os arquivos de registro para mais detalhes.</translation>
    </message>
    <message>
        <source>Worker running · {running} of {threads} slots busy</source>
        <translation>Processador ativo · {running} de {threads} vagas ocupadas</translation>
    </message>
    <message>
        <source>The worker runs again, with the new settings · {running} of {threads} slots busy</source>
        <translation>O processador está rodando de novo, com as novas configurações · {running} de {threads} vagas ocupadas</translation>
    </message>
    <message>
        <source>No worker is running: jobs wait until one starts.</source>
        <translation>Nenhum processador ativo: as tarefas esperam até que um comece.</translation>
    </message>
    <message>
        <source>loading the model</source>
        <translation>carregando o modelo</translation>
    </message>
    <message>
        <source>model unloaded</source>
        <translation>modelo descarregado da memória</translation>
    </message>
    <message>
        <source>Paused: queued jobs wait until you resume</source>
        <translation>Pausada: os trabalhos na fila esperam até você retomar</translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <source>Job details</source>
        <translation>Detalhes da tarefa</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>What it is doing</source>
        <translation>O que está fazendo</translation>
    </message>
    <message>
        <source>Why it stopped</source>
        <translation>Por que parou</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>Copiar detalhes</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progresso</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>Tempo restante</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Tentativas</translation>
    </message>
    <message>
        <source>Next try</source>
        <translation>Próxima tentativa</translation>
    </message>
    <message>
        <source>Added</source>
        <translation>Adicionada em</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Iniciada em</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>Terminada em</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Duração</translation>
    </message>
    <message>
        <source>No document selected</source>
        <translation>Nenhum documento selecionado</translation>
    </message>
    <message>
        <source>Choose a document in the list to see its phases, messages and errors.</source>
        <translation>Escolha um documento na lista para ver as etapas, as mensagens e os erros.</translation>
    </message>
    <message>
        <source>It stopped because: {reason}</source>
        <translation>Parou porque: {reason}</translation>
    </message>
    <message>
        <source>This looked like a temporary problem, but every attempt was used. Retry later.</source>
        <translation>Parecia um problema passageiro, mas todas as tentativas foram usadas. Tente de novo mais tarde.</translation>
    </message>
    <message>
        <source>Trying again will not help until this is fixed.</source>
        <translation>Tentar de novo não vai adiantar até que isso seja resolvido.</translation>
    </message>
    <message>
        <source>The last try did not work: {reason}</source>
        <translation>A última tentativa não deu certo: {reason}</translation>
    </message>
    <message>
        <source>attempt {n} of {total}</source>
        <translation>tentativa {n} de {total}</translation>
    </message>
    <message>
        <source>{when} — the last error looked temporary, so it will try again by itself</source>
        <translation>{when} — o último erro parecia passageiro, então tentará de novo sozinha</translation>
    </message>
    <message>
        <source>{when}</source>
        <translation>{when}</translation>
    </message>
</context>
<context>
    <name>DetailsTabs</name>
    <message>
        <source>Details</source>
        <translation>Detalhes</translation>
    </message>
    <message>
        <source>Study guide</source>
        <translation>Guia de estudo</translation>
    </message>
    <message>
        <source>Read the study guide here</source>
        <translation>Leia o guia de estudo aqui</translation>
    </message>
</context>
<context>
    <name>DownloadNote</name>
    <message>
        <source>Model download</source>
        <translation>Download do modelo</translation>
    </message>
    <message>
        <source>Model download: waiting for the worker</source>
        <translation>Download do modelo: esperando o processador</translation>
    </message>
    <message>
        <source>Model download: {percent} % · {left}</source>
        <translation>Download do modelo: {percent} % · {left}</translation>
    </message>
    <message>
        <source> (+{n} more)</source>
        <translation> (+{n})</translation>
    </message>
    <message>
        <source>{name}: open Settings → Model</source>
        <translation>{name}: abrir Configurações → Modelo</translation>
    </message>
</context>
<context>
    <name>DuplicateDialog</name>
    <message>
        <source>Already added</source>
        <translation>Já adicionado</translation>
    </message>
    <message>
        <source>StudyJobs already has the content of these files. Add them again?</source>
        <translation>O StudyJobs já tem o conteúdo destes arquivos. Adicionar de novo?</translation>
    </message>
    <message>
        <source>Files added before</source>
        <translation>Arquivos adicionados antes</translation>
    </message>
    <message>
        <source>Add again</source>
        <translation>Adicionar de novo</translation>
    </message>
    <message>
        <source>Skip those</source>
        <translation>Pular esses</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <source>Something went wrong</source>
        <translation>Algo deu errado</translation>
    </message>
    <message>
        <source>StudyJobs kept running. The details below were written to the log file.</source>
        <translation>O StudyJobs continua funcionando. Os detalhes abaixo foram gravados no arquivo de registro.</translation>
    </message>
    <message>
        <source>Error details</source>
        <translation>Detalhes do erro</translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation>Copiar detalhes</translation>
    </message>
    <message>
        <source>An unexpected error happened: {error}</source>
        <translation>Aconteceu um erro inesperado: {error}</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Markdown text (.md)</source>
        <translation>Texto Markdown (.md)</translation>
    </message>
    <message>
        <source>Word document (.docx)</source>
        <translation>Documento do Word (.docx)</translation>
    </message>
    <message>
        <source>PDF document (.pdf)</source>
        <translation>Documento PDF (.pdf)</translation>
    </message>
    <message>
        <source>Anki flashcards (.apkg)</source>
        <translation>Cartões do Anki (.apkg)</translation>
    </message>
    <message>
        <source>Table of terms and questions (.csv)</source>
        <translation>Tabela de termos e perguntas (.csv)</translation>
    </message>
    <message>
        <source>Export the study guide</source>
        <translation>Exportar o guia de estudo</translation>
    </message>
    <message>
        <source>Study guide</source>
        <translation>Guia de estudo</translation>
    </message>
    <message>
        <source>The study guide to export</source>
        <translation>O guia de estudo a exportar</translation>
    </message>
    <message>
        <source>Guide:</source>
        <translation>Guia:</translation>
    </message>
    <message>
        <source>File format</source>
        <translation>Formato do arquivo</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>Formato:</translation>
    </message>
    <message>
        <source>Export result</source>
        <translation>Resultado da exportação</translation>
    </message>
    <message>
        <source>Choose the file…</source>
        <translation>Escolher o arquivo…</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fechar</translation>
    </message>
    <message>
        <source>Writing {file}…</source>
        <translation>Gravando {file}…</translation>
    </message>
    <message>
        <source>This document has no study guide.</source>
        <translation>Este documento não tem guia de estudo.</translation>
    </message>
    <message>
        <source>The file {file} could not be written: {reason}</source>
        <translation>Não foi possível gravar o arquivo {file}: {reason}</translation>
    </message>
    <message>
        <source>Saved to {file}.</source>
        <translation>Salvo em {file}.</translation>
    </message>
</context>
<context>
    <name>GuideViewer</name>
    <message>
        <source>Study guide status</source>
        <translation>Situação do guia de estudo</translation>
    </message>
    <message>
        <source>Note about the study guide</source>
        <translation>Aviso sobre o guia de estudo</translation>
    </message>
    <message>
        <source>Study guide</source>
        <translation>Guia de estudo</translation>
    </message>
    <message>
        <source>Open in another app</source>
        <translation>Abrir em outro aplicativo</translation>
    </message>
    <message>
        <source>Open the study guide file with the app your system uses for Markdown</source>
        <translation>Abrir o arquivo do guia de estudo com o aplicativo que o sistema usa para Markdown</translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation>Salvar como…</translation>
    </message>
    <message>
        <source>Save a copy of the study guide as a Markdown file</source>
        <translation>Salvar uma cópia do guia de estudo como arquivo Markdown</translation>
    </message>
    <message>
        <source>No study guide yet. It appears here as soon as its first section is written.</source>
        <translation>Ainda não há guia de estudo. Ele aparece aqui assim que a primeira seção for escrita.</translation>
    </message>
    <message>
        <source>Choose a document in the list to read its study guide.</source>
        <translation>Escolha um documento na lista para ler o guia de estudo dele.</translation>
    </message>
    <message>
        <source>Export…</source>
        <translation>Exportar…</translation>
    </message>
    <message>
        <source>Save the study guide as Word, PDF, Anki flashcards or a table</source>
        <translation>Salvar o guia de estudo como Word, PDF, cartões do Anki ou uma tabela</translation>
    </message>
    <message>
        <source>Rewrite this section</source>
        <translation>Reescrever esta seção</translation>
    </message>
    <message>
        <source>Write the section where the cursor is again, with other words</source>
        <translation>Escrever de novo, com outras palavras, a seção onde está o cursor</translation>
    </message>
    <message>
        <source>This document was added for its text only: it has no study guide.</source>
        <translation>Este documento foi adicionado só pelo texto: ele não tem guia de estudo.</translation>
    </message>
    <message>
        <source>Finished: {file}</source>
        <translation>Pronto: {file}</translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation>Pronto.</translation>
    </message>
    <message>
        <source>Writing… (no section yet)</source>
        <translation>Escrevendo… (nenhuma seção ainda)</translation>
    </message>
    <message>
        <source>Writing… (1 section so far)</source>
        <translation>Escrevendo… (1 seção até agora)</translation>
    </message>
    <message>
        <source>Writing… ({count} sections so far)</source>
        <translation>Escrevendo… ({count} seções até agora)</translation>
    </message>
    <message>
        <source>The model chosen in Settings quotes the document instead of writing summaries, so this section would come out the same. To have it written in other words, choose a model that writes summaries in Settings → Model.</source>
        <translation>O modelo escolhido nas Configurações cita o documento em vez de escrever resumos, então esta seção ficaria igual. Para que ela seja escrita com outras palavras, escolha em Configurações → Modelo um modelo que escreva resumos.</translation>
    </message>
    <message>
        <source>No app on this computer could open {file}.</source>
        <translation>Nenhum aplicativo deste computador conseguiu abrir {file}.</translation>
    </message>
    <message>
        <source>No app on this computer is set up to open Markdown files, so the study guide is shown here.</source>
        <translation>Nenhum aplicativo deste computador está configurado para abrir arquivos Markdown, por isso o guia de estudo é mostrado aqui.</translation>
    </message>
    <message>
        <source>The file {file} is no longer there. This is the copy StudyJobs kept; use Save as… to write it again.</source>
        <translation>O arquivo {file} não está mais lá. Esta é a cópia que o StudyJobs guardou; use Salvar como… para gravá-lo de novo.</translation>
    </message>
    <message>
        <source>The file {file} is no longer there. Use Save as… to write the study guide again.</source>
        <translation>O arquivo {file} não está mais lá. Use Salvar como… para gravar o guia de estudo de novo.</translation>
    </message>
    <message>
        <source>No app on this computer is set up to open Markdown files. You can read the study guide here, or use Save as… and open the copy with an app you choose.</source>
        <translation>Nenhum aplicativo deste computador está configurado para abrir arquivos Markdown. Você pode ler o guia de estudo aqui, ou usar Salvar como… e abrir a cópia com um aplicativo que você escolher.</translation>
    </message>
    <message>
        <source>Save the study guide</source>
        <translation>Salvar o guia de estudo</translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation>Arquivos Markdown (*.md)</translation>
    </message>
    <message>
        <source>Click in a section of the guide first.</source>
        <translation>Clique primeiro em uma seção do guia.</translation>
    </message>
    <message>
        <source>This guide cannot have a section rewritten.</source>
        <translation>Não é possível reescrever uma seção deste guia.</translation>
    </message>
    <message>
        <source>“{title}” will be written again.</source>
        <translation>“{title}” será escrita de novo.</translation>
    </message>
    <message>
        <source>The study guide could not be saved to {file}: {reason}</source>
        <translation>Não foi possível salvar o guia de estudo em {file}: {reason}</translation>
    </message>
    <message>
        <source>Saved to {file}.</source>
        <translation>Salvo em {file}.</translation>
    </message>
</context>
<context>
    <name>JobLogSection</name>
    <message>
        <source>Log</source>
        <translation>Registro</translation>
    </message>
    <message>
        <source>Show the job&apos;s log</source>
        <translation>Mostrar o registro do trabalho</translation>
    </message>
    <message>
        <source>The job&apos;s log</source>
        <translation>O registro do trabalho</translation>
    </message>
    <message>
        <source>The worker has written nothing about this job yet.</source>
        <translation>O processador ainda não registrou nada sobre este trabalho.</translation>
    </message>
</context>
<context>
    <name>JobsModel</name>
    <message>
        <source>Study guide</source>
        <translation>Guia de estudo</translation>
    </message>
    <message>
        <source>Text only</source>
        <translation>Só o texto</translation>
    </message>
    <message>
        <source>Document</source>
        <translation>Documento</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Tipo</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Situação</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>Progresso</translation>
    </message>
    <message>
        <source>Time left</source>
        <translation>Tempo restante</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>Início</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>Duração</translation>
    </message>
    <message>
        <source>Retry at {time}</source>
        <translation>Nova tentativa às {time}</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;Add documents…</source>
        <translation>&amp;Adicionar documentos…</translation>
    </message>
    <message>
        <source>&amp;Cancel job</source>
        <translation>&amp;Cancelar tarefa</translation>
    </message>
    <message>
        <source>Stop this job</source>
        <translation>Interromper esta tarefa</translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation>&amp;Tentar de novo</translation>
    </message>
    <message>
        <source>Run this job again</source>
        <translation>Executar esta tarefa de novo</translation>
    </message>
    <message>
        <source>Cancel &amp;all</source>
        <translation>Cancelar &amp;todos</translation>
    </message>
    <message>
        <source>Stop every document that is waiting or running</source>
        <translation>Interromper todos os documentos que estão aguardando ou em andamento</translation>
    </message>
    <message>
        <source>Retry all &amp;failed</source>
        <translation>Tentar de novo os que &amp;falharam</translation>
    </message>
    <message>
        <source>Run every document that failed again</source>
        <translation>Processar de novo todos os documentos que falharam</translation>
    </message>
    <message>
        <source>&amp;Write again</source>
        <translation>&amp;Escrever de novo</translation>
    </message>
    <message>
        <source>Write this study guide again; the one you have stays until the new one is ready</source>
        <translation>Escrever este guia de estudo de novo; o atual continua disponível até o novo ficar pronto</translation>
    </message>
    <message>
        <source>&amp;Open study guide</source>
        <translation>Abrir o &amp;guia de estudo</translation>
    </message>
    <message>
        <source>Show in &amp;folder</source>
        <translation>Mostrar na &amp;pasta</translation>
    </message>
    <message>
        <source>Re&amp;move from history</source>
        <translation>Re&amp;mover do histórico</translation>
    </message>
    <message>
        <source>Forget this finished job (its files are kept)</source>
        <translation>Esquecer esta tarefa concluída (os arquivos são mantidos)</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Configurações…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Sair</translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation>&amp;Buscar</translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation>At&amp;ualizar</translation>
    </message>
    <message>
        <source>All</source>
        <translation>Todas</translation>
    </message>
    <message>
        <source>Active</source>
        <translation>Ativas</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Concluídas</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Com falha</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Canceladas</translation>
    </message>
    <message>
        <source>Show: {filter}</source>
        <translation>Mostrar: {filter}</translation>
    </message>
    <message>
        <source>Search documents</source>
        <translation>Buscar documentos</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Tarefas</translation>
    </message>
    <message>
        <source>Main</source>
        <translation>Principal</translation>
    </message>
    <message>
        <source>Number of jobs</source>
        <translation>Número de tarefas</translation>
    </message>
    <message>
        <source>{shown} of {total} documents</source>
        <translation>{shown} de {total} documentos</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Arquivo</translation>
    </message>
    <message>
        <source>&amp;Job</source>
        <translation>&amp;Tarefa</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Exibir</translation>
    </message>
    <message>
        <source>Add documents</source>
        <translation>Adicionar documentos</translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation>Documentos ({patterns})</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Todos os arquivos (*)</translation>
    </message>
    <message>
        <source>These files cannot be added:
{names}

StudyJobs reads {kinds} files.</source>
        <translation>Estes arquivos não podem ser adicionados:
{names}

O StudyJobs lê arquivos {kinds}.</translation>
    </message>
    <message>
        <source>Finished: {name}</source>
        <translation>Concluída: {name}</translation>
    </message>
    <message>
        <source>The job is done.</source>
        <translation>A tarefa terminou.</translation>
    </message>
    <message>
        <source>Stopped: {name}</source>
        <translation>Parou: {name}</translation>
    </message>
</context>
<context>
    <name>ModelCard</name>
    <message>
        <source>{n} GB</source>
        <translation>{n} GB</translation>
    </message>
    <message>
        <source>{n} MB</source>
        <translation>{n} MB</translation>
    </message>
    <message>
        <source>A guide of 50 pages: {time}</source>
        <translation>Um guia de 50 páginas: {time}</translation>
    </message>
    <message>
        <source>(from this model&apos;s own speed, measured on this computer)</source>
        <translation>(pela velocidade deste modelo, medida neste computador)</translation>
    </message>
    <message>
        <source>(scaled from this computer&apos;s speed with the bundled model; this model has not run here yet)</source>
        <translation>(calculado pela velocidade deste computador com o modelo incluído; este modelo ainda não rodou aqui)</translation>
    </message>
    <message>
        <source>(estimated from the bundled model&apos;s speed)</source>
        <translation>(estimado pela velocidade do modelo incluído)</translation>
    </message>
    <message>
        <source>Fits this computer?</source>
        <translation>Cabe neste computador?</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progresso do download</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Baixar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Retry</source>
        <translation>Tentar de novo</translation>
    </message>
    <message>
        <source>Use</source>
        <translation>Usar</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Remover</translation>
    </message>
    <message>
        <source>Fits this computer</source>
        <translation>Cabe neste computador</translation>
    </message>
    <message>
        <source>Too big for this computer</source>
        <translation>Grande demais para este computador</translation>
    </message>
    <message>
        <source>Demo · works offline</source>
        <translation>Demonstração · funciona sem internet</translation>
    </message>
    <message>
        <source>In use</source>
        <translation>Em uso</translation>
    </message>
    <message>
        <source>Downloaded</source>
        <translation>Baixado</translation>
    </message>
    <message>
        <source>commercial use allowed</source>
        <translation>uso comercial permitido</translation>
    </message>
    <message>
        <source>non-commercial: not for selling courses or any paid work</source>
        <translation>não comercial: não serve para vender cursos nem para trabalho pago</translation>
    </message>
    <message>
        <source>{size} · needs {ram} of RAM · languages: {languages} · licence: {licence}</source>
        <translation>{size} · precisa de {ram} de RAM · idiomas: {languages} · licença: {licence}</translation>
    </message>
    <message>
        <source>licence terms</source>
        <translation>termos da licença</translation>
    </message>
    <message>
        <source>Choose another model first</source>
        <translation>Escolha outro modelo primeiro</translation>
    </message>
    <message>
        <source>Waiting for the worker…</source>
        <translation>Esperando o processador…</translation>
    </message>
    <message>
        <source>The download failed: {error}</source>
        <translation>O download falhou: {error}</translation>
    </message>
    <message>
        <source>Download stopped. Retry continues where it stopped.</source>
        <translation>Download interrompido. Tentar de novo continua de onde parou.</translation>
    </message>
    <message>
        <source>Starting the download…</source>
        <translation>Iniciando o download…</translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation>{done} de {total}</translation>
    </message>
    <message>
        <source>{rate}/s</source>
        <translation>{rate}/s</translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <source>the file {file}</source>
        <translation>o arquivo {file}</translation>
    </message>
    <message>
        <source>{model} on the server {endpoint}</source>
        <translation>{model} no servidor {endpoint}</translation>
    </message>
    <message>
        <source>the bundled demo model</source>
        <translation>o modelo de demonstração incluído</translation>
    </message>
    <message>
        <source>Model in use: {name}</source>
        <translation>Modelo em uso: {name}</translation>
    </message>
    <message>
        <source>Model in use</source>
        <translation>Modelo em uso</translation>
    </message>
    <message>
        <source>The model catalog cannot be read: {error}</source>
        <translation>Não foi possível ler o catálogo de modelos: {error}</translation>
    </message>
</context>
<context>
    <name>ModelServersBox</name>
    <message>
        <source>Model servers found</source>
        <translation>Servidores de modelo encontrados</translation>
    </message>
    <message>
        <source>Another address, e.g. http://192.168.0.10:11434</source>
        <translation>Outro endereço, por exemplo http://192.168.0.10:11434</translation>
    </message>
    <message>
        <source>Another server address</source>
        <translation>Outro endereço de servidor</translation>
    </message>
    <message>
        <source>Look for servers</source>
        <translation>Procurar servidores</translation>
    </message>
    <message>
        <source>Cannot look for servers right now.</source>
        <translation>Não é possível procurar servidores agora.</translation>
    </message>
    <message>
        <source>“{address}” is not a server address.</source>
        <translation>“{address}” não é um endereço de servidor.</translation>
    </message>
    <message>
        <source>Looking for model servers…</source>
        <translation>Procurando servidores de modelo…</translation>
    </message>
    <message>
        <source>Looking for model servers failed.</source>
        <translation>A procura por servidores de modelo falhou.</translation>
    </message>
    <message>
        <source>(no model loaded)</source>
        <translation>(nenhum modelo carregado)</translation>
    </message>
    <message>
        <source>Choose a model to use it.</source>
        <translation>Escolha um modelo para usá-lo.</translation>
    </message>
    <message>
        <source>No model server answered (Ollama, LM Studio or llama.cpp&apos;s server).</source>
        <translation>Nenhum servidor de modelo respondeu (Ollama, LM Studio ou o servidor do llama.cpp).</translation>
    </message>
    <message>
        <source>{address} wants an API key: type it below and look again.</source>
        <translation>{address} pede uma chave de API: digite-a abaixo e procure de novo.</translation>
    </message>
    <message>
        <source>{address} answered, but not as a model server.</source>
        <translation>{address} respondeu, mas não como um servidor de modelo.</translation>
    </message>
    <message>
        <source>{address} did not answer.</source>
        <translation>{address} não respondeu.</translation>
    </message>
</context>
<context>
    <name>PhaseBars</name>
    <message>
        <source>Saving the text</source>
        <translation>Salvando o texto</translation>
    </message>
    <message>
        <source>Cleaning up the text</source>
        <translation>Limpando o texto</translation>
    </message>
    <message>
        <source>Progress of each phase</source>
        <translation>Progresso de cada etapa</translation>
    </message>
    <message>
        <source>done</source>
        <translation>concluída</translation>
    </message>
    <message>
        <source>{percent}%</source>
        <translation>{percent}%</translation>
    </message>
    <message>
        <source>stopped at {percent}%</source>
        <translation>parou em {percent}%</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>aguardando</translation>
    </message>
</context>
<context>
    <name>QueuePause</name>
    <message>
        <source>&amp;Queue</source>
        <translation>&amp;Fila</translation>
    </message>
    <message>
        <source>&amp;Resume the queue</source>
        <translation>&amp;Retomar a fila</translation>
    </message>
    <message>
        <source>Let the worker take queued jobs again</source>
        <translation>Deixar o processador pegar de novo os trabalhos da fila</translation>
    </message>
    <message>
        <source>&amp;Pause the queue</source>
        <translation>&amp;Pausar a fila</translation>
    </message>
    <message>
        <source>Take no new job until you resume (running jobs finish; queued jobs wait)</source>
        <translation>Não começar nenhum trabalho novo até você retomar (os que estão rodando terminam; os da fila esperam)</translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>Configurações</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>Modelo</translation>
    </message>
    <message>
        <source>General</source>
        <translation>Geral</translation>
    </message>
    <message>
        <source>Other models: a file or a server</source>
        <translation>Outros modelos: um arquivo ou um servidor</translation>
    </message>
    <message>
        <source>The model that comes with StudyJobs (small, works offline)</source>
        <translation>O modelo que vem com o StudyJobs (pequeno, funciona sem internet)</translation>
    </message>
    <message>
        <source>A model file on this computer (GGUF)</source>
        <translation>Um arquivo de modelo neste computador (GGUF)</translation>
    </message>
    <message>
        <source>A model server (OpenAI-compatible)</source>
        <translation>Um servidor de modelos (compatível com OpenAI)</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>Arquivo do modelo</translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation>Escolher…</translation>
    </message>
    <message>
        <source>Choose the model file</source>
        <translation>Escolher o arquivo do modelo</translation>
    </message>
    <message>
        <source>Server address</source>
        <translation>Endereço do servidor</translation>
    </message>
    <message>
        <source>Model name</source>
        <translation>Nome do modelo</translation>
    </message>
    <message>
        <source>API key</source>
        <translation>Chave de API</translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation>Testar conexão</translation>
    </message>
    <message>
        <source>Jobs at once</source>
        <translation>Tarefas ao mesmo tempo</translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation>Pasta de saída</translation>
    </message>
    <message>
        <source>Choose the output folder</source>
        <translation>Escolher a pasta de saída</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Idioma</translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation>O mesmo do sistema</translation>
    </message>
    <message>
        <source>Tell me when a job finishes or fails</source>
        <translation>Avisar quando uma tarefa terminar ou falhar</translation>
    </message>
    <message>
        <source>Closing the window keeps StudyJobs in the tray</source>
        <translation>Fechar a janela mantém o StudyJobs na bandeja</translation>
    </message>
    <message>
        <source>Start the worker when I log in</source>
        <translation>Iniciar o processador quando eu entrar no sistema</translation>
    </message>
    <message>
        <source>A new language applies the next time StudyJobs starts.</source>
        <translation>Um novo idioma vale a partir da próxima vez que o StudyJobs abrir.</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Salvar</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Cancelar</translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation>Automático</translation>
    </message>
    <message>
        <source> tokens</source>
        <translation> tokens</translation>
    </message>
    <message>
        <source>Context window</source>
        <translation>Janela de contexto</translation>
    </message>
    <message>
        <source>How much text the model reads at once. Automatic takes what the model was trained for, up to 8,192 tokens, as far as this computer&apos;s memory allows; a larger figure needs more memory, and a server&apos;s own setting wins when it is smaller.</source>
        <translation>Quanto texto o modelo lê de uma vez. Automático usa o que o modelo aprendeu a ler, até 8.192 tokens, até onde a memória deste computador permite; um número maior precisa de mais memória, e a configuração do próprio servidor vale quando é menor.</translation>
    </message>
    <message>
        <source>Type the server address first (http://… or https://…).</source>
        <translation>Digite primeiro o endereço do servidor (http://… ou https://…).</translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation>Testando…</translation>
    </message>
    <message>
        <source>The server answered.</source>
        <translation>O servidor respondeu.</translation>
    </message>
    <message>
        <source>The server answered with an error (HTTP {code}).</source>
        <translation>O servidor respondeu com um erro (HTTP {code}).</translation>
    </message>
    <message>
        <source>No answer from the server: {error}</source>
        <translation>O servidor não respondeu: {error}</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation>Modelos GGUF (*.gguf)</translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <source>Waiting</source>
        <translation>Na fila</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Em andamento</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Concluída</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Falhou</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Cancelada</translation>
    </message>
    <message>
        <source>Reading the document</source>
        <translation>Lendo o documento</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>Carregando o modelo</translation>
    </message>
    <message>
        <source>Planning the sections</source>
        <translation>Planejando as seções</translation>
    </message>
    <message>
        <source>Writing the sections</source>
        <translation>Escrevendo as seções</translation>
    </message>
    <message>
        <source>Summarising</source>
        <translation>Resumindo</translation>
    </message>
    <message>
        <source>Reviewing</source>
        <translation>Revisando</translation>
    </message>
    <message>
        <source>Saving the guide</source>
        <translation>Salvando o guia</translation>
    </message>
    <message>
        <source>{h} h {m:02d} min</source>
        <translation>{h} h {m:02d} min</translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation>{m} min {s:02d} s</translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation>{s} s</translation>
    </message>
    <message>
        <source>estimating…</source>
        <translation>calculando…</translation>
    </message>
    <message>
        <source>less than a minute</source>
        <translation>menos de um minuto</translation>
    </message>
    <message>
        <source>about {m} min</source>
        <translation>cerca de {m} min</translation>
    </message>
    <message>
        <source>about {h} h {m:02d} min</source>
        <translation>cerca de {h} h {m:02d} min</translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>Show StudyJobs</source>
        <translation>Mostrar o StudyJobs</translation>
    </message>
    <message>
        <source>Quit</source>
        <translation>Sair</translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <source>Welcome</source>
        <translation>Boas-vindas</translation>
    </message>
    <message>
        <source>Welcome to StudyJobs</source>
        <translation>Boas-vindas ao StudyJobs</translation>
    </message>
    <message>
        <source>The model that comes with StudyJobs is a small demo: it works offline and lets you try the app, but it is too small to summarise, so its study guides quote the document&apos;s key passages. For summaries in a model&apos;s own words, download a better model.</source>
        <translation>O modelo que vem com o StudyJobs é uma pequena demonstração: funciona sem internet e permite experimentar o aplicativo, mas é pequeno demais para resumir, então seus guias de estudo citam os trechos principais do documento. Para resumos escritos pelo modelo, baixe um modelo melhor.</translation>
    </message>
    <message>
        <source>Recommended model</source>
        <translation>Modelo recomendado</translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation>Progresso do download</translation>
    </message>
    <message>
        <source>Download {name}</source>
        <translation>Baixar {name}</translation>
    </message>
    <message>
        <source>Download</source>
        <translation>Baixar</translation>
    </message>
    <message>
        <source>Use it</source>
        <translation>Usar este modelo</translation>
    </message>
    <message>
        <source>Other models…</source>
        <translation>Outros modelos…</translation>
    </message>
    <message>
        <source>Not now</source>
        <translation>Agora não</translation>
    </message>
    <message>
        <source>None of the catalog&apos;s models fits in the memory this computer has free ({ram}); the demo model stays in use. Settings → Model lists them all.</source>
        <translation>Nenhum modelo do catálogo cabe na memória livre deste computador ({ram}); o modelo de demonstração continua em uso. Configurações → Modelo lista todos.</translation>
    </message>
    <message>
        <source>Recommended for this computer: {name} — a {size} download that needs {ram} of RAM.</source>
        <translation>Recomendado para este computador: {name} — um download de {size} que precisa de {ram} de RAM.</translation>
    </message>
    <message>
        <source>A model server answers on this computer: {servers}. Settings → Model can use it instead.</source>
        <translation>Um servidor de modelos responde neste computador: {servers}. Em Configurações → Modelo você pode usá-lo.</translation>
    </message>
    <message>
        <source>{name} is downloaded and ready.</source>
        <translation>{name} foi baixado e está pronto.</translation>
    </message>
    <message>
        <source>Try again</source>
        <translation>Tentar de novo</translation>
    </message>
</context>
<context>
    <name>WorkerRestart</name>
    <message>
        <source>Use the new settings</source>
        <translation>Usar as novas configurações</translation>
    </message>
    <message>
        <source>The worker must start again to use the new settings, and a job is running now. Stop that job now (it goes back to the queue and starts over with the new settings), or let it finish first?</source>
        <translation>O processador precisa reiniciar para usar as novas configurações, e há um trabalho rodando agora. Parar esse trabalho agora (ele volta para a fila e recomeça com as novas configurações) ou deixar que termine primeiro?</translation>
    </message>
    <message>
        <source>Stop it now</source>
        <translation>Parar agora</translation>
    </message>
    <message>
        <source>Let it finish first</source>
        <translation>Deixar terminar primeiro</translation>
    </message>
    <message>
        <source>The worker now uses the new database or queue. Start StudyJobs again to see its jobs.</source>
        <translation>O processador agora usa o novo banco de dados ou a nova fila. Abra o StudyJobs de novo para ver os trabalhos dele.</translation>
    </message>
</context>
</TS>
