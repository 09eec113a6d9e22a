"""The markdown the agents write (plans, questions, test output, tables) in Jira's two formats."""

import re

import pytest

from emulators.adf_check import adf_problems
from integrations.jira.adf import adf_to_markdown, markdown_to_adf
from integrations.jira.wiki import markdown_to_wiki, wiki_to_adf
from tests.integrations.test_commonmark_spec import adf_text

PLAN = """# Plan v2 for DEMO-1: Add a power operation

**Summary.** Add `power(base, exponent)` to `calc/operations.py` and a `pow` subcommand.

## Files

1. `calc/operations.py` (modify)
   - add `power(base: float, exponent: int) -> float`
   - raise `ValueError("0 cannot be raised to a negative power")`
2. `calc/cli.py` (modify): wire the `pow` subcommand
3. `tests/test_operations.py` (create)

## Contracts

| function | input | output |
| --- | --- | --- |
| `power` | `2, 3` | `8` |
| `power` | `2, -1` | `0.5` |
| `power` | `0, -1` | raises `ValueError` |

## What changed since v1

- *Reviewer asked:* handle negative exponents
  - done: floats for negative powers
    - `0 ** -1` raises instead of `ZeroDivisionError`
- ~~integer results only~~ (dropped)

> Risk: callers comparing with `==` on floats.

---

*ticketsmith ref: ticket-DEMO-1/0199a2b3/plan-v2*
"""

QUESTIONS = """Questions:

1. Should negative exponents return a float (`2 ** -1 == 0.5`)?
   Why: it changes the return type of `power`.
2. What should `power(0, -1)` do: raise like **divide** does, or return `inf`?
3. Is the CLI subcommand named `pow` or `power`?

Answer in a comment; `/approve` works once a plan is posted.
"""

TEST_OUTPUT = """Tests **fail** (exit code 1). The end of the output:

```text
============================= test session starts ==============================
collected 4 items

tests/test_operations.py ..F.                                            [100%]

=================================== FAILURES ===================================
___________________________ test_power_negative ___________________________

    def test_power_negative():
>       assert power(2, -1) == 0.5
E       assert 0 == 0.5
E        +  where 0 = power(2, -1)

tests/test_operations.py:12: AssertionError
*** 1 failed, 3 passed in 0.12s ***
```

Run it yourself: `python -m pytest -q tests/test_operations.py::test_power_negative`
"""

CORPUS = {"plan": PLAN, "questions": QUESTIONS, "test output": TEST_OUTPUT}


def blocks(doc: dict, kind: str) -> list[dict]:
    """Every node of a kind, anywhere in the document."""
    found, stack = [], [doc]
    while stack:
        node = stack.pop()
        if node.get("type") == kind:
            found.append(node)
        stack.extend(reversed(node.get("content") or []))
    return found


@pytest.mark.parametrize("markdown", CORPUS.values(), ids=CORPUS.keys())
def test_agent_markdown_is_valid_adf_and_wiki_and_keeps_every_word(markdown: str) -> None:
    doc = markdown_to_adf(markdown)
    assert adf_problems(doc) == []
    # List numbers and a fence's language are structure, not text.
    prose = re.sub(r"(?m)^\s*\d+\. |^```\w+$", "", markdown)
    words = set(re.findall(r"\w+", prose))
    assert words <= set(re.findall(r"\w+", adf_text(doc)))
    assert markdown_to_adf(adf_to_markdown(doc)) == doc
    assert wiki_to_adf(markdown_to_wiki(markdown)) == doc


def test_plan_structure() -> None:
    doc = markdown_to_adf(PLAN)
    headings = [adf_text(h) for h in blocks(doc, "heading")]
    assert headings == [
        "Plan v2 for DEMO-1: Add a power operation",
        "Files",
        "Contracts",
        "What changed since v1",
    ]
    files = blocks(doc, "orderedList")[0]
    assert len(files["content"]) == 3
    assert blocks(files["content"][0], "bulletList")  # the sub-points stay nested
    rows = blocks(doc, "tableRow")
    assert [[adf_text(c).strip() for c in row["content"]] for row in rows] == [
        ["function", "input", "output"],
        ["power", "2, 3", "8"],
        ["power", "2, -1", "0.5"],
        ["power", "0, -1", "raises ValueError"],
    ]
    assert [c["type"] for c in rows[0]["content"]] == ["tableHeader"] * 3
    changed = next(b for b in doc["content"] if b["type"] == "bulletList")  # what changed
    assert len(blocks(changed, "bulletList")) == 3  # three levels
    assert [t["marks"] for t in blocks(doc, "text") if t["text"] == "integer results only"] == [
        [{"type": "strike"}]
    ]
    assert blocks(doc, "blockquote") and blocks(doc, "rule")
    wiki = markdown_to_wiki(PLAN)
    assert "||function||input||output||" in wiki
    assert "\n** done: floats for negative powers\n*** {{0 ** -1}} raises" in wiki
    assert "# {{calc/operations.py}} (modify)\n#* add {{power(base: float" in wiki


def test_questions_keep_their_numbers_and_lines() -> None:
    doc = markdown_to_adf(QUESTIONS)
    items = blocks(doc, "listItem")
    assert len(items) == 3
    first = items[0]["content"][0]["content"]
    assert {"type": "hardBreak"} in first  # "Why:" stays on its own line
    assert markdown_to_wiki(QUESTIONS).count("\n# ") == 3


def test_test_output_stays_verbatim_in_its_code_block() -> None:
    doc = markdown_to_adf(TEST_OUTPUT)
    (code,) = blocks(doc, "codeBlock")
    assert code["attrs"] == {"language": "text"}
    fenced = TEST_OUTPUT.split("```text\n")[1].split("```")[0].removesuffix("\n")
    assert code["content"] == [{"type": "text", "text": fenced}]
    assert "{code:text}\n" + fenced + "\n{code}" in markdown_to_wiki(TEST_OUTPUT)
