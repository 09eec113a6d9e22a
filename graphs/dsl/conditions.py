"""Declarative conditions on the graph's state: equals, in, exists, not, all, any (no eval)."""

from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from graphs.dsl.state import MISSING, get_path

OPERATORS = ("equals", "in", "exists", "not", "all", "any")


class Condition(BaseModel):
    """One test on the state. `path` names the value; exactly one operator says what to test.

    `{path: review.passed, equals: true}`, `{path: route, in: [a, b]}`,
    `{path: approval, exists: true}`, `{not: {...}}`, `{all: [...]}`, `{any: [...]}`.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    path: str | None = None
    equals: Any = None
    in_: list[Any] | None = Field(default=None, alias="in")
    exists: bool | None = None
    not_: "Condition | None" = Field(default=None, alias="not")
    all_: "list[Condition] | None" = Field(default=None, alias="all")
    any_: "list[Condition] | None" = Field(default=None, alias="any")

    @model_validator(mode="after")
    def _one_operator(self) -> "Condition":
        used = self.operators()
        if len(used) != 1:
            found = ", ".join(used) or "none"
            raise ValueError(
                f"a condition takes exactly one of {', '.join(OPERATORS)}; found {found}"
            )
        needs_path = used[0] in ("equals", "in", "exists")
        if needs_path and not self.path:
            raise ValueError(f"the condition '{used[0]}' needs a `path` naming a state value")
        if not needs_path and self.path:
            raise ValueError(f"the condition '{used[0]}' takes no `path`; put it on the inner ones")
        return self

    @model_serializer(mode="wrap")
    def _only_what_is_written(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        # Unset operators stay out, so the dump validates back to the same condition.
        dumped: dict[str, Any] = handler(self)
        written = {"path", *self.operators()}
        names = {"in_": "in", "not_": "not", "all_": "all", "any_": "any"}
        return {k: v for k, v in dumped.items() if names.get(k, k) in written}

    def operators(self) -> list[str]:
        """The operators this condition sets."""
        fields = self.model_fields_set
        names = {"in_": "in", "not_": "not", "all_": "all", "any_": "any"}
        return [names.get(f, f) for f in fields if names.get(f, f) in OPERATORS]

    def holds(self, state: dict[str, Any]) -> bool:
        """Whether the condition is true of the state."""
        operator = self.operators()[0]
        if operator == "not":
            return not self.not_.holds(state)  # type: ignore[union-attr]
        if operator == "all":
            return all(c.holds(state) for c in self.all_ or [])
        if operator == "any":
            return any(c.holds(state) for c in self.any_ or [])
        value = get_path(state, self.path or "")
        if operator == "exists":
            return (value is not MISSING and value is not None) == self.exists
        if value is MISSING:
            return False
        if operator == "equals":
            return bool(value == self.equals)
        return value in (self.in_ or [])

    def paths(self) -> list[str]:
        """Every state path the condition reads."""
        inner = [self.not_] if self.not_ else [*(self.all_ or []), *(self.any_ or [])]
        return ([self.path] if self.path else []) + [p for c in inner for p in c.paths()]

    def describe(self) -> str:
        """The condition as a short readable text (for summaries)."""
        operator = self.operators()[0]
        if operator == "not":
            return f"not ({self.not_.describe()})"  # type: ignore[union-attr]
        if operator in ("all", "any"):
            parts = self.all_ if operator == "all" else self.any_
            joiner = " and " if operator == "all" else " or "
            return joiner.join(f"({c.describe()})" for c in parts or [])
        if operator == "exists":
            return f"{self.path} {'exists' if self.exists else 'is absent'}"
        if operator == "equals":
            return f"{self.path} == {self.equals!r}"
        return f"{self.path} in {self.in_!r}"
