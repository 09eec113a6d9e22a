"""Reading definitions from YAML: the steps form, and the node form (`graph:`, `next`, `fork`)."""

from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from graphs.dsl.errors import DefinitionError, from_validation
from graphs.dsl.model import GraphDefinition
from graphs.dsl.nodes import nodes_to_steps
from graphs.dsl.validate import check_definition

DEFINITIONS_DIR = Path(__file__).parents[1] / "definitions"


def parse_definition(
    data: Any, source: str = "the definition", default_name: str = "graph"
) -> GraphDefinition:
    """A definition from parsed YAML or JSON data, checked for structure (agents are not)."""
    if not isinstance(data, dict):
        raise DefinitionError(
            source, ["a mapping with `name` and `steps` (or `graph`) is expected"]
        )
    data = dict(data)
    if "graph" in data:
        if "steps" in data:
            raise DefinitionError(source, ["write either `steps` or `graph` (nodes), not both"])
        data["steps"] = nodes_to_steps(source, data.pop("graph"))
    data.setdefault("name", default_name)
    try:
        definition = GraphDefinition.model_validate(data)
    except ValidationError as err:
        raise from_validation(source, data, err) from None
    check_definition(definition)
    return definition


def load_definition_text(text: str, source: str = "the definition") -> GraphDefinition:
    """A definition from YAML text."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise DefinitionError(source, [f"not valid YAML: {err}"]) from None
    return parse_definition(data, source)


def load_definition(path: Path | str) -> GraphDefinition:
    """A definition from a YAML file; a bare name means a shipped one (`mvp`)."""
    path = Path(path)
    shipped = DEFINITIONS_DIR / f"{path}.yaml"
    # A bare name is a shipped definition even where a folder of that name is (`research/`).
    if not path.is_file() and not path.suffix and shipped.exists():
        path = shipped
    try:
        text = path.read_text()
    except OSError as err:
        raise DefinitionError(str(path), [f"cannot read it: {err.strerror}"]) from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise DefinitionError(str(path), [f"not valid YAML: {err}"]) from None
    return parse_definition(data, str(path), default_name=path.stem.replace(" ", "_"))
