"""A brain for the fake model server that plays the agent team on a pull request: a first
implementation with a bug, the fix when CI fails, and changes when a review asks."""

import json
from collections.abc import Callable
from typing import Any

from harness.team import TeamBrain
from llm.fences import fence, find_file_block

OPS, TESTS = "calc/operations.py", "tests/test_operations.py"
BUGGY = (
    "\n\ndef power(base: float, exponent: int) -> float:\n"
    '    """Return base**exponent."""\n    return base * exponent\n'
)
TEST_POWER = (
    "\n\ndef test_power() -> None:\n    from calc.operations import power\n\n"
    "    assert power(2, 3) == 8\n"
)
TEST_ZERO = (
    "\n\ndef test_power_zero() -> None:\n    from calc.operations import power\n\n"
    "    assert power(5, 0) == 1\n"
)


class PullRequestBrain(TeamBrain):
    """Writes a buggy power(), fixes it when CI fails, and answers review comments; asks
    `question` before planning when it is set."""

    question = ""

    def _questions(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        if not self.question:
            return super()._questions(body, inputs)
        asked = {"text": self.question, "why": "It decides the return type."}
        return json.dumps({"questions": [asked], "clear": False})

    def _implement_file(self, body: dict[str, Any], inputs: dict[str, Any]) -> Any:
        human = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
        path = inputs["path"]
        if "failing CI checks" in human and path == OPS:
            return self._rewrite(
                body, path, lambda text: text.replace("base * exponent", "base**exponent")
            )
        if "review comments" in human:
            extra = "\n# exponent is a whole number\n" if path == OPS else TEST_ZERO
            return self._rewrite(body, path, lambda text: text.rstrip("\n") + "\n" + extra)
        if "failing CI checks" in human:
            return self._rewrite(body, path, lambda text: text)
        return super()._implement_file(body, inputs)

    def _rewrite(self, body: dict[str, Any], path: str, change: Callable[[str], str]) -> str:
        human = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
        current = find_file_block(human, path, fallback=False) or ""
        return fence(path, change(current), "python")

    def _resolve_conflict(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        """Keep both sides of every conflict, the branch's first."""
        human = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
        path = inputs["path"]
        conflicted = find_file_block(human, path, fallback=False) or ""
        kept = [
            line
            for line in conflicted.splitlines(keepends=True)
            if not line.startswith(("<<<<<<<", "=======", ">>>>>>>"))
        ]
        return fence(path, "".join(kept), "python")

    def _review(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        return json.dumps({"passed": True, "summary": "Reviewed.", "fixes": []})

    def _judge_comments(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        """A comment whose file the round changed is addressed; the reply says how."""
        verdicts = [
            {"id": c["id"], "addressed": c["changed"],
             "reply": "Changed as asked" if c["changed"] else "Nothing here needed changing"}
            for c in inputs["comments"]
        ]  # fmt: skip
        return json.dumps({"verdicts": verdicts})


def pull_request_brain(question: str = "") -> PullRequestBrain:
    """The brain whose first power() is wrong (and which asks `question` first, if given)."""
    brain = PullRequestBrain(additions={OPS: BUGGY, TESTS: TEST_POWER})
    brain.question = question
    return brain
