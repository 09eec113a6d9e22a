"""Graph definitions: the model, the YAML loader, the fluent builder and their checks.

Nothing here imports temporalio or langchain, so workflows can carry definitions.
"""

from graphs.dsl.builder import GraphBuilder, equals, exists, is_in, negate
from graphs.dsl.conditions import Condition
from graphs.dsl.errors import DefinitionError
from graphs.dsl.loader import (
    DEFINITIONS_DIR,
    load_definition,
    load_definition_text,
    parse_definition,
)
from graphs.dsl.model import GraphDefinition, Retry, Step
from graphs.dsl.validate import check_definition

__all__ = [
    "DEFINITIONS_DIR",
    "Condition",
    "DefinitionError",
    "GraphBuilder",
    "GraphDefinition",
    "Retry",
    "Step",
    "check_definition",
    "equals",
    "exists",
    "is_in",
    "load_definition",
    "load_definition_text",
    "negate",
    "parse_definition",
]
