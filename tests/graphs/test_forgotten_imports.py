"""Imports a model forgot are added; names the file binds itself are left alone."""

from graphs.implementation.worker.forgotten_imports import add_forgotten_imports

TEST_FILE = (
    "from kiln.firing import firing_time\n\n\n"
    "def test_zero_ramp():\n"
    "    with pytest.raises(ValueError):\n"
    "        firing_time([1], 0)\n"
)


def test_a_forgotten_pytest_import_is_added_before_the_code() -> None:
    fixed, added = add_forgotten_imports("tests/test_firing.py", TEST_FILE)
    assert added == ["import pytest"]
    assert fixed == "import pytest\n" + TEST_FILE


def test_the_import_goes_after_the_docstring_and_future_imports() -> None:
    source = (
        '"""Doc."""\nfrom __future__ import annotations\n\n@dec\ndef f():\n    return math.pi\n'
    )
    fixed, added = add_forgotten_imports("m.py", source)
    assert added == ["import math"]
    assert fixed.splitlines() == [
        '"""Doc."""',
        "from __future__ import annotations",
        "",
        "import math",
        "@dec",
        "def f():",
        "    return math.pi",
    ]


def test_names_the_file_binds_are_not_imported() -> None:
    source = (
        "import re as re\n"
        "def f(json):\n    return json.loads(re.escape('x')), os.sep\n"
        "for sys in []:\n    sys.x\n"
        "import os.path\n"
    )
    fixed, added = add_forgotten_imports("m.py", source)
    assert (fixed, added) == (source, [])


def test_unknown_modules_syntax_errors_and_other_files_are_left_alone() -> None:
    unknown = "def f():\n    return numpy.zeros(3)\n"
    assert add_forgotten_imports("m.py", unknown) == (unknown, [])
    broken = "def f(:\n    pytest.fail()\n"
    assert add_forgotten_imports("m.py", broken) == (broken, [])
    text = "pytest.raises\n"
    assert add_forgotten_imports("notes.md", text) == (text, [])


def test_typing_names_read_but_not_bound_are_imported_from_typing() -> None:
    source = (
        '"""Stages."""\nimport re\n\n\ndef schedule(plan: str) -> List[Tuple[str, int]]:\n'
        "    minutes: Dict[str, int] = {}\n    return sorted(minutes.items())\n"
    )
    fixed, added = add_forgotten_imports("m.py", source)
    assert added == ["from typing import Dict, List, Tuple"]
    assert fixed.startswith('"""Stages."""\nfrom typing import Dict, List, Tuple\nimport re\n')
    compile(fixed, "m.py", "exec")
    own = "List = list\n\n\ndef f() -> List:\n    return []\n"
    assert add_forgotten_imports("m.py", own) == (own, [])  # the file binds it itself
