<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en" sourcelanguage="en">
<context>
    <name>AddDialog</name>
    <message>
        <source>Add documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These documents will be added:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents to add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What should StudyJobs make of them?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A &amp;study guide (reads the text, then writes the guide)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Only the text (extraction, no guide)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language of the study guide:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language of the study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The document&apos;s language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ApiKeyField</name>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Only for servers that ask for one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the API key from the system keyring…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The API key comes from the environment variable {name}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This computer has no system keyring (on Linux, no Secret Service is running), so StudyJobs cannot keep an API key safely. Set the environment variable {name} for the worker instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your key is still written in the settings file; once {name} is set, remove it from there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kept in the system keyring ({keyring}), never in the settings file.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Catalog</name>
    <message>
        <source>Trying StudyJobs without a download: it works offline; its guides quote key passages instead of summaries.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Laptops with 8 GB of RAM: clear guides in Portuguese and English, never stops to think aloud.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lighter laptops: the smallest download here, the maker&apos;s own file, lists Portuguese.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computers with 8 GB of RAM or more: a newer Qwen, run with its thinking turned off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computers with 16 GB of RAM: the best guides of this list, slower on a laptop.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DaemonBar</name>
    <message>
        <source>Looking for the worker…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worker status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the worker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the worker…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worker will start again with the new settings when its job ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Restarting the worker to use the new settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worker could not start: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>See the log files for details.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worker running · {running} of {threads} slots busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worker runs again, with the new settings · {running} of {threads} slots busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No worker is running: jobs wait until one starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loading the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>model unloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused: queued jobs wait until you resume</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DetailsPanel</name>
    <message>
        <source>Job details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What it is doing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Why it stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next try</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No document selected</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a document in the list to see its phases, messages and errors.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>It stopped because: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This looked like a temporary problem, but every attempt was used. Retry later.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trying again will not help until this is fixed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last try did not work: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>attempt {n} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{when} — the last error looked temporary, so it will try again by itself</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{when}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DetailsTabs</name>
    <message>
        <source>Details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read the study guide here</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DownloadNote</name>
    <message>
        <source>Model download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model download: waiting for the worker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model download: {percent} % · {left}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (+{n} more)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name}: open Settings → Model</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DuplicateDialog</name>
    <message>
        <source>Already added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>StudyJobs already has the content of these files. Add them again?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Files added before</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip those</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <source>Something went wrong</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>StudyJobs kept running. The details below were written to the log file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy details</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An unexpected error happened: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <source>Markdown text (.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Word document (.docx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PDF document (.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anki flashcards (.apkg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Table of terms and questions (.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The study guide to export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Guide:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File format</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing {file}…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This document has no study guide.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file {file} could not be written: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to {file}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GuideViewer</name>
    <message>
        <source>Study guide status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note about the study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in another app</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the study guide file with the app your system uses for Markdown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a copy of the study guide as a Markdown file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No study guide yet. It appears here as soon as its first section is written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a document in the list to read its study guide.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the study guide as Word, PDF, Anki flashcards or a table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rewrite this section</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the section where the cursor is again, with other words</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This document was added for its text only: it has no study guide.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished: {file}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing… (no section yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing… (1 section so far)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing… ({count} sections so far)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model chosen in Settings quotes the document instead of writing summaries, so this section would come out the same. To have it written in other words, choose a model that writes summaries in Settings → Model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No app on this computer could open {file}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No app on this computer is set up to open Markdown files, so the study guide is shown here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file {file} is no longer there. This is the copy StudyJobs kept; use Save as… to write it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The file {file} is no longer there. Use Save as… to write the study guide again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No app on this computer is set up to open Markdown files. You can read the study guide here, or use Save as… and open the copy with an app you choose.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Markdown files (*.md)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click in a section of the guide first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This guide cannot have a section rewritten.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{title}” will be written again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The study guide could not be saved to {file}: {reason}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved to {file}.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobLogSection</name>
    <message>
        <source>Log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the job&apos;s log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job&apos;s log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worker has written nothing about this job yet.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>JobsModel</name>
    <message>
        <source>Study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Text only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Time left</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry at {time}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;Add documents…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Cancel job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop this job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run this job again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel &amp;all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop every document that is waiting or running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry all &amp;failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run every document that failed again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Write again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write this study guide again; the one you have stays until the new one is ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open study guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show in &amp;folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;move from history</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget this finished job (its files are kept)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Find</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Re&amp;fresh</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Active</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show: {filter}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Search documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Main</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of jobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{shown} of {total} documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add documents</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Documents ({patterns})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These files cannot be added:
{names}

StudyJobs reads {kinds} files.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Finished: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job is done.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped: {name}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelCard</name>
    <message>
        <source>{n} GB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{n} MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A guide of 50 pages: {time}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(from this model&apos;s own speed, measured on this computer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(scaled from this computer&apos;s speed with the bundled model; this model has not run here yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(estimated from the bundled model&apos;s speed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits this computer?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Retry</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fits this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too big for this computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Demo · works offline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>In use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Downloaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>commercial use allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>non-commercial: not for selling courses or any paid work</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{size} · needs {ram} of RAM · languages: {languages} · licence: {licence}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>licence terms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose another model first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the worker…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The download failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download stopped. Retry continues where it stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starting the download…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{done} of {total}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{rate}/s</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelPage</name>
    <message>
        <source>the file {file}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{model} on the server {endpoint}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the bundled demo model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model in use: {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model catalog cannot be read: {error}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelServersBox</name>
    <message>
        <source>Model servers found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another address, e.g. http://192.168.0.10:11434</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another server address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Look for servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot look for servers right now.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>“{address}” is not a server address.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for model servers…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for model servers failed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no model loaded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a model to use it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No model server answered (Ollama, LM Studio or llama.cpp&apos;s server).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{address} wants an API key: type it below and look again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{address} answered, but not as a model server.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{address} did not answer.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>PhaseBars</name>
    <message>
        <source>Saving the text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cleaning up the text</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Progress of each phase</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{percent}%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped at {percent}%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>QueuePause</name>
    <message>
        <source>&amp;Queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Resume the queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let the worker take queued jobs again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Pause the queue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Take no new job until you resume (running jobs finish; queued jobs wait)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>General</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other models: a file or a server</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model that comes with StudyJobs (small, works offline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model file on this computer (GGUF)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model server (OpenAI-compatible)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Server address</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>API key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test connection</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Jobs at once</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the output folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Same as the system</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tell me when a job finishes or fails</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Closing the window keeps StudyJobs in the tray</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the worker when I log in</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A new language applies the next time StudyJobs starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> tokens</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Context window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much text the model reads at once. Automatic takes what the model was trained for, up to 8,192 tokens, as far as this computer&apos;s memory allows; a larger figure needs more memory, and a server&apos;s own setting wins when it is smaller.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Type the server address first (http://… or https://…).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Testing…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server answered.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The server answered with an error (HTTP {code}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No answer from the server: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GGUF models (*.gguf)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Texts</name>
    <message>
        <source>Waiting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reading the document</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Planning the sections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Writing the sections</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Summarising</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reviewing</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saving the guide</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{h} h {m:02d} min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{m} min {s:02d} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{s} s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>estimating…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>less than a minute</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about {m} min</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>about {h} h {m:02d} min</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>Tray</name>
    <message>
        <source>Show StudyJobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Quit</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WelcomePanel</name>
    <message>
        <source>Welcome</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Welcome to StudyJobs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model that comes with StudyJobs is a small demo: it works offline and lets you try the app, but it is too small to summarise, so its study guides quote the document&apos;s key passages. For summaries in a model&apos;s own words, download a better model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download {name}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Download</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other models…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>None of the catalog&apos;s models fits in the memory this computer has free ({ram}); the demo model stays in use. Settings → Model lists them all.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recommended for this computer: {name} — a {size} download that needs {ram} of RAM.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A model server answers on this computer: {servers}. Settings → Model can use it instead.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} is downloaded and ready.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try again</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WorkerRestart</name>
    <message>
        <source>Use the new settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worker must start again to use the new settings, and a job is running now. Stop that job now (it goes back to the queue and starts over with the new settings), or let it finish first?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop it now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Let it finish first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worker now uses the new database or queue. Start StudyJobs again to see its jobs.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
