"""A brain for the fake model server that plays every agent of the team for one small change."""

import json
from dataclasses import dataclass, field
from typing import Any

from harness.model_server import Reply, ToolCalls, task_of
from llm.fences import fence, find_file_block


@dataclass
class TeamBrain:
    """Answers each task: the plan touches `additions`' files, workers append the additions."""

    additions: dict[str, str]
    contracts: list[dict[str, str]] = field(default_factory=list)
    query_first: bool = False

    def __call__(self, body: dict[str, Any]) -> Reply:
        """The reply to one request."""
        task, inputs = task_of(body)
        answer = getattr(self, f"_{task}", None)
        if answer is None:
            return f"no answer for task {task!r}"
        result: Reply = answer(body, inputs)
        return result

    def _analysis(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        return json.dumps({"summary": "A small Python package with pytest tests."})

    def _questions(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        return json.dumps({"questions": [], "clear": True})

    def _requirements(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        summary = inputs["ticket"]["summary"]
        return json.dumps(
            {
                "requirements": [summary],
                "acceptance_criteria": ["The project's tests pass."],
                "followup_questions": [],
                "clear": True,
            }
        )

    def _plan(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        files = [{"path": p, "action": "modify", "purpose": f"Extend {p}."} for p in self.additions]
        plan = {
            "summary": "Append the new code and its tests.",
            "files": files,
            "test_plan": ["Run the project's tests."],
            "risks": ["None."],
            "contracts": self.contracts,
        }
        return json.dumps(plan)

    def _implement_file(self, body: dict[str, Any], inputs: dict[str, Any]) -> Reply:
        path = inputs["path"]
        roles = [m.get("role") for m in body.get("messages", [])]
        if self.query_first and body.get("tools") and "tool" not in roles:
            return ToolCalls([("context_query", {"query": path, "limit": 2})])
        human = next(m["content"] for m in reversed(body["messages"]) if m.get("role") == "user")
        current = find_file_block(human, path, fallback=False) or ""
        return fence(path, current.rstrip("\n") + "\n" + self.additions[path], "python")

    def _acceptance_checks(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        return json.dumps({"checks": []})

    def _review(self, body: dict[str, Any], inputs: dict[str, Any]) -> str:
        passed = inputs["tests"].get("passed", True)
        fixes = [] if passed else [{"path": p, "instruction": "Fix it."} for p in self.additions]
        return json.dumps({"passed": passed, "summary": "Reviewed.", "fixes": fixes})
