"""The language server (``gradguard lsp``): a thin pygls 2 adapter over the engine.

* :mod:`gradguard.lsp.server` - features, the server object, ``main``;
* :mod:`gradguard.lsp.documents` - per-document state, carrying findings across edits;
* :mod:`gradguard.lsp.convert` - engine <-> LSP positions (UTF-16 / UTF-8 / UTF-32);
* :mod:`gradguard.lsp.settings` - editor settings and how they meet ``[tool.gradguard]``.
"""
