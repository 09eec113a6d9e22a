"""The gate before a test run: every changed Python file must compile."""

from graphs.schemas import FileChange


def syntax_errors(changes: list[FileChange]) -> dict[str, str]:
    """Changed Python files that do not compile, with the error and its line."""
    errors: dict[str, str] = {}
    for change in changes:
        if change.delete or not change.path.endswith(".py"):
            continue
        try:
            compile(change.content, change.path, "exec", dont_inherit=True)
        except SyntaxError as err:
            line = (err.text or "").strip()
            where = f"line {err.lineno}" + (f": {line}" if line else "")
            errors[change.path] = f"SyntaxError: {err.msg} ({where})"
        except ValueError as err:  # null bytes
            errors[change.path] = f"cannot compile: {err}"
    return errors
