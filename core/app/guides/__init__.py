"""Study guides as stored, their languages, Markdown shape, progress budgets and rewrites; `export/` writes them out."""
