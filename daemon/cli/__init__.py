"""``studyjobs``, the command line: documents, guides and exports, models, model servers, and the worker itself."""
