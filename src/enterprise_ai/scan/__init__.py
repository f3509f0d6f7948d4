"""Finding the tools in Python code: the import scan (child process) and the static scan (AST only)."""
