"""Code in fenced blocks headed by paths."""

from llm.fences import fence, fenced_blocks, find_file_block, safe_relative_path


def test_block_headed_by_the_path_is_preferred() -> None:
    answer = (
        "Example usage:\n```python\nprint(1)\n```\n"
        "### src/app.py\n```python\nAPP = 1\n```\n"
        "src/app.py.bak\n```\nold\n```\n"
    )
    assert find_file_block(answer, "src/app.py") == "APP = 1\n"
    assert find_file_block(answer, "./src/app.py") == "APP = 1\n"


def test_path_in_the_info_string() -> None:
    assert find_file_block("```python src/app.py\nX = 2\n```", "src/app.py") == "X = 2\n"


def test_falls_back_to_the_first_block_only_when_asked() -> None:
    answer = "```python\nFIRST = 1\n```\n```python\nSECOND = 2\n```"
    assert find_file_block(answer, "src/app.py") == "FIRST = 1\n"
    assert find_file_block(answer, "src/app.py", fallback=False) is None
    assert find_file_block("no code here", "src/app.py") is None


def test_fence_round_trips_content_holding_backticks() -> None:
    content = "# Readme\n\n```bash\nmake\n```\n"
    text = fence("README.md", content, "markdown")
    assert text.startswith("README.md\n````markdown\n")
    assert find_file_block(text, "README.md") == content
    assert len(fenced_blocks(text)) == 1


def test_unclosed_block_runs_to_the_end() -> None:
    assert find_file_block("a.py\n```python\nX = 1\nY = 2", "a.py") == "X = 1\nY = 2\n"


def test_safe_relative_paths() -> None:
    assert safe_relative_path("./src/a.py") == "src/a.py"
    assert safe_relative_path("`src\\a.py`") == "src/a.py"
    for bad in ("/etc/passwd", "../x.py", "src/../../x", "C:/x.py", ".git/config", ""):
        assert safe_relative_path(bad) is None, bad


def test_a_block_quoting_the_file_as_it_is_gives_way_to_the_new_version() -> None:
    quoted = "The file now:\n```python a.py\nX = 1\n```\nChanged:\n```python a.py\nX = 2\n```"
    assert find_file_block(quoted, "a.py") == "X = 1\n"
    assert find_file_block(quoted, "a.py", unlike="X = 1\n") == "X = 2\n"
    assert find_file_block("```python a.py\nX = 1\n```", "a.py", unlike="X = 1") == "X = 1\n"
    unnamed = "```python\nX = 1\n```\n```python\nX = 3\n```"
    assert find_file_block(unnamed, "a.py", unlike="X = 1\n") == "X = 3\n"


def test_a_fence_in_a_list_item_is_written_without_the_items_indent() -> None:
    answer = (
        "Changes:\n\n1. Update `calc/core.py`:\n\n   ```python\n   def add(a, b):\n"
        "       return a + b\n   ```\n2. Done.\n"
    )
    assert find_file_block(answer, "calc/core.py") == "def add(a, b):\n    return a + b\n"


def test_fences_indented_one_to_three_spaces_or_further_lose_that_indent() -> None:
    for indent in ("  ", "   ", "    ", "      "):
        code = "".join(f"{indent}{line}\n" for line in ("```python", "X = 1", "if X:", "    Y = 2"))
        answer = f"a.py\n\n{code}{indent}```\n"
        assert find_file_block(answer, "a.py", fallback=False) == "X = 1\nif X:\n    Y = 2\n", (
            indent
        )


def test_a_fence_in_a_quote_and_nested_backticks() -> None:
    quoted = "> a.py\n> ```python\n> X = 1\n> ```\n"
    assert find_file_block(quoted, "a.py", fallback=False) == "X = 1\n"
    nested = "README.md\n````markdown\nRun:\n```sh\nmake\n```\n````\n"
    assert find_file_block(nested, "README.md") == "Run:\n```sh\nmake\n```\n"
    tildes = "b.py\n~~~python\nprint('```')\n~~~\n"
    assert find_file_block(tildes, "b.py") == "print('```')\n"
