"""The acceptance tests' writer is shown what it can import and call, not source to copy."""

from pathlib import Path

from graphs.analysis.graph import index_repository
from graphs.implementation.criteria.outline import api_outline
from tests.graphs.conftest import write_tree

REPO = {
    "aquarium/__init__.py": "",
    "aquarium/tank.py": (
        "from dataclasses import dataclass\n\n\n@dataclass\nclass Tank:\n"
        '    """A glass tank."""\n\n    length_cm: float\n    water_l: float\n'
        "    gravel_kg: float = 0.0\n\n    def volume(self, unit: str = 'cm') -> float:\n"
        '        """Its volume."""\n        return self.length_cm ** 3\n\n'
        "    def _hidden(self):\n        return 0\n"
    ),
    "aquarium/stock.py": (
        "from aquarium.tank import Tank\n\nPER_FISH_L = 2.5\n_PRIVATE = 1\n\n\n"
        "def fish_capacity(tank: Tank, *, per_fish: float = PER_FISH_L) -> float:\n"
        '    """How many fish the tank holds."""\n    return 0.0\n\n\n'
        "def _helper():\n    return 1\n\n\nclass Filter:\n"
        "    def __init__(self, per_hour: float):\n        self.per_hour = per_hour\n"
    ),
}


def test_the_outline_lists_imports_signatures_and_the_classes_they_take(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", REPO)
    outline = api_outline(repo, ["aquarium/stock.py"], index_repository(repo))
    assert outline == [
        "`aquarium/stock.py` (import from `aquarium.stock`):\n"
        "- `PER_FISH_L = 2.5`\n"
        "- `fish_capacity(tank: Tank, *, per_fish: float=PER_FISH_L) -> float`: How many fish"
        " the tank holds.\n"
        "- `Filter(per_hour: float)`",
        "`aquarium/tank.py` (import from `aquarium.tank`):\n"
        "- `Tank(length_cm: float, water_l: float, gravel_kg: float = 0.0)`: A glass tank.\n"
        "  - `Tank(...).volume(unit: str='cm') -> float`: Its volume.",
    ]
    assert "def " not in "\n".join(outline) and "return" not in "\n".join(outline)


def test_a_file_that_does_not_parse_is_left_out(tmp_path: Path) -> None:
    repo = write_tree(tmp_path / "repo", {"broken.py": "def (:\n"})
    assert api_outline(repo, ["broken.py"], None) == []
