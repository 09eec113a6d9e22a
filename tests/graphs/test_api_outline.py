"""The acceptance tests' writer is shown what it can import and call, not source to copy."""

from pathlib import Path

from graphs.analysis.graph import index_repository
from graphs.implementation.criteria.outline import api_outline
from tests.graphs.conftest import write_tree

REPO = {
    "depot/__init__.py": "",
    "depot/parcel.py": (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Parcel:\n"
        '    """A packed box."""\n\n    length_cm: float\n    content_g: float\n'
        "    box_g: float = 0.0\n\n    def volume(self, unit: str = 'cm') -> float:\n"
        '        """Its volume."""\n        return self.length_cm ** 3\n\n'
        "    def _hidden(self):\n        return 0\n"
    ),
    "depot/weights.py": (
        "from depot.parcel import Parcel\n\nSTEP_KG = 0.5\n_PRIVATE = 1\n\n\n"
        "def chargeable_kg(parcel: Parcel, *, step: float = STEP_KG) -> float:\n"
        '    """The weight the courier charges for."""\n    return 0.0\n\n\n'
        "def _helper():\n    return 1\n\n\nclass Rate:\n    def __init__(self, per_kg: float):\n"
        "        self.per_kg = per_kg\n"
    ),
}


def test_the_outline_lists_imports_signatures_and_the_classes_they_take(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    outline = api_outline(repo, ["depot/weights.py"], index_repository(repo))
    assert outline == [
        "`depot/weights.py` (import from `depot.weights`):\n"
        "- `STEP_KG = 0.5`\n"
        "- `chargeable_kg(parcel: Parcel, *, step: float=STEP_KG) -> float`: The weight the"
        " courier charges for.\n"
        "- `Rate(per_kg: float)`",
        "`depot/parcel.py` (import from `depot.parcel`):\n"
        "- `Parcel(length_cm: float, content_g: float, box_g: float = 0.0)`: A packed box.\n"
        "  - `Parcel(...).volume(unit: str='cm') -> float`: Its volume.",
    ]
    assert "def " not in "\n".join(outline) and "return" not in "\n".join(outline)


def test_a_file_that_does_not_parse_is_left_out(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"broken.py": "def (:\n"})
    assert api_outline(repo, ["broken.py"], None) == []
