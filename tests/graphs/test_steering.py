"""People steering a running implementation graph: guidance reaches the next revision's
workers, and a stop ends the loop after the revision under way with its best revision."""

from pathlib import Path

from graphs.implementation import implement_plan
from graphs.implementation.steering import Said, SteeringNews
from graphs.models import ScriptedChatModel
from graphs.schemas import PlannedFile, TicketContext
from llm.prompting import read_task
from tests.graphs.test_implementation import NEW_OPS, QA_PASS, answer_for, make_plan

QA_FAIL = (
    '{"passed": false, "summary": "Not yet.", "fixes": [{"path": "calc/ops.py", '
    '"instruction": "Add a docstring to subtract."}]}'
)
GUIDANCE = Said(id=1, author="bob", text="Keep subtract's signature exactly as add's.")


class ScriptedSteering:
    """What people say, revision by revision (the last entry holds afterwards)."""

    def __init__(self, news: list[SteeringNews]) -> None:
        self._news = news
        self.asked = 0
        self.given_to: list[tuple[list[int], int]] = []

    async def news(self) -> SteeringNews:
        self.asked += 1
        return self._news[min(self.asked, len(self._news)) - 1]

    async def given(self, ids: list[int], revision: int) -> None:
        self.given_to.append((ids, revision))


async def test_guidance_said_during_revision_one_reaches_revision_twos_workers(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    steering = ScriptedSteering([SteeringNews(), SteeringNews(said=[GUIDANCE])])
    ops = answer_for({"calc/ops.py": NEW_OPS})
    documented = answer_for(
        {"calc/ops.py": NEW_OPS.replace("return a - b", "return a - b  # b from a")}
    )
    model = ScriptedChatModel([ops, QA_FAIL, documented, QA_PASS])
    files = [PlannedFile(path="calc/ops.py", action="modify", purpose="Add subtract.")]
    await implement_plan(model, tiny_repo, ticket, make_plan(files), None, steering=steering)
    workers = [m for m in model.received if read_task(m)[0] == "implement_file"]
    assert len(workers) == 2
    assert "bob: Keep subtract's signature" not in workers[0][-1].text
    assert "People on the ticket said this while the work ran" in workers[1][-1].text
    assert "- bob: Keep subtract's signature exactly as add's." in workers[1][-1].text
    assert steering.given_to == [([1], 2)]  # given once, to the revision that first had it


async def test_a_stop_ends_the_loop_after_the_revision_under_way_with_its_best(
    tiny_repo: Path, ticket: TicketContext
) -> None:
    steering = ScriptedSteering([SteeringNews(), SteeringNews(stop_by="carol")])
    ops = answer_for({"calc/ops.py": NEW_OPS})
    model = ScriptedChatModel([ops, QA_FAIL, ops, QA_PASS])
    files = [PlannedFile(path="calc/ops.py", action="modify", purpose="Add subtract.")]
    result = await implement_plan(
        model, tiny_repo, ticket, make_plan(files), None, steering=steering
    )
    assert len([m for m in model.received if read_task(m)[0] == "implement_file"]) == 1
    assert [c.path for c in result.changes] == ["calc/ops.py"]
    assert "Stopped after revision 1: carol asked to stop." in result.notes
