"""The gate before a test run: every changed Python file must compile (and import)."""

from pathlib import Path

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


def module_name(path: str) -> str | None:
    """The importable module of a changed Python source file (not a test), if any."""
    parts = Path(path).with_suffix("").parts
    if not path.endswith(".py") or not parts or parts[0] in ("tests", "test"):
        return None
    if Path(path).name.startswith("test_") or parts[0] in ("setup", "conftest"):
        return None
    parts = parts[1:] if parts[0] == "src" else parts
    names = list(parts[:-1]) if parts[-1] == "__init__" else list(parts)
    return ".".join(names) if names and all(n.isidentifier() for n in names) else None
