"""An answer's JSON schema as a short outline a model reads: keys, types, bounds and notes.

The full schema still goes to the server, whose grammar enforces it; the prompt only has to
tell the model what each key is for. Pydantic's schema spends most of its characters on
titles, `$ref`s and punctuation, and a small model reads every one of them on every call.
"""

import json
from typing import Any

from pydantic import BaseModel

Schema = dict[str, Any]


def outline(schema: type[BaseModel]) -> str:
    """The model's answer schema as an outline."""
    return json_schema_outline(schema.model_json_schema())


def json_schema_outline(schema: Schema) -> str:
    """A JSON schema's outline: one line a key, nested objects indented, notes after `//`."""
    return _render(schema, schema.get("$defs", {}), indent=0)


def _render(node: Schema, defs: Schema, indent: int) -> str:
    """The outline of one schema node at the given indentation."""
    node = _resolved(node, defs)
    if node.get("type") == "object" and "properties" in node:
        return _object(node, defs, indent)
    if node.get("type") == "array":
        items = _render(node.get("items", {}), defs, indent)
        return f"[{items}]{_bound(node, 'maxItems', 'items')}"
    if "enum" in node:
        return " | ".join(json.dumps(value) for value in node["enum"])
    if "const" in node:
        return json.dumps(node["const"])
    variants = node.get("anyOf") or node.get("oneOf")
    if variants:
        return " | ".join(_render(variant, defs, indent) for variant in variants)
    if node.get("allOf"):  # a reference with notes beside it, as older generators write it
        return _render(node["allOf"][0], defs, indent)
    kind = node.get("type", "any")
    if isinstance(kind, list):
        return " | ".join(_render({**node, "type": one}, defs, indent) for one in kind)
    if kind == "object":
        values = node.get("additionalProperties")
        inner = _render(values, defs, indent) if isinstance(values, dict) else "any"
        return f"{{string: {inner}}}"
    if kind == "string":
        return "string"  # the grammar enforces a length; a small model cannot count to it
    if kind in ("integer", "number"):
        low, high = node.get("minimum"), node.get("maximum")
        if low is not None and high is not None:
            return f"{kind} {low}-{high}"
        return str(kind)
    if kind == "boolean":
        return "true | false"
    return str(kind)


def _object(node: Schema, defs: Schema, indent: int) -> str:
    """An object's keys, one a line, with whether each may be left out and its note."""
    required = set(node.get("required", []))
    pad = "  " * (indent + 1)
    fields = list(node["properties"].items())
    lines = []
    for position, (name, field) in enumerate(fields, start=1):
        value = _render(field, defs, indent + 1)
        optional = "" if name in required else " (optional)"
        comma = "," if position < len(fields) else ""
        note = field.get("description")  # a field's own; a class's docstring is for readers
        comment = f"  // {note}" if note else ""
        lines.append(f"{pad}{json.dumps(name)}{optional}: {value}{comma}{comment}")
    closing = "  " * indent
    return "{\n" + "\n".join(lines) + f"\n{closing}}}"


def _resolved(node: Schema, defs: Schema) -> Schema:
    """The node, or the definition its `$ref` points at."""
    reference = node.get("$ref")
    if isinstance(reference, str):
        return dict(defs.get(reference.rsplit("/", 1)[-1], {}))
    return node


def _bound(node: Schema, key: str, unit: str) -> str:
    """The node's upper bound as a short note, or nothing."""
    limit = node.get(key)
    return f" (max {limit} {unit})" if limit is not None else ""
