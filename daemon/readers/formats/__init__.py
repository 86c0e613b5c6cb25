"""One reader per document format (PDF, EPUB, Word, plain text, Markdown, HTML), with their structure finders."""
