"""The worker prices what an agent activity's model calls used, every attempt in and out."""

import uuid
from datetime import timedelta

from pydantic import BaseModel
from temporalio import activity, workflow
from temporalio.testing import WorkflowEnvironment

from config import Settings
from graphs.models import ScriptedChatModel
from graphs.schemas import QuestionSet
from llm.metering import estimate_tokens
from llm.structured import ask_structured
from worker import ActivitySets, build_workers

# A script whose first answer does not parse: the second attempt counts too.
SCRIPT = ["I would rather not say.", '{"clear": true}']
MODEL = ScriptedChatModel(SCRIPT)


class Clear(BaseModel):
    """A small answer schema."""

    clear: bool


@activity.defn(name="ask_if_clear")
async def ask_if_clear(ticket: str) -> QuestionSet:
    """An agent activity: one structured question to the model."""
    answer, tokens = await ask_structured(MODEL, "task: test", ticket, Clear)
    return QuestionSet(questions=[], clear=answer.clear, tokens=tokens)


@workflow.defn(name="AskIfClear", sandboxed=False)
class AskIfClear:
    """Runs the agent activity once."""

    @workflow.run
    async def run(self, ticket: str) -> QuestionSet:
        return await workflow.execute_activity(
            ask_if_clear, ticket, result_type=QuestionSet,
            start_to_close_timeout=timedelta(seconds=30),
        )  # fmt: skip


async def test_an_agent_result_carries_its_priced_tokens_in_and_out(
    time_skipping_env: WorkflowEnvironment,
) -> None:
    queue = f"tq-{uuid.uuid4()}"
    settings = Settings(
        task_queue=queue,
        agent_task_queue=queue,
        model_provider="offline",
        model_prices='{"offline": {"input": 100, "output": 400}}',
        _env_file=None,  # type: ignore[call-arg]
    )
    sets = ActivitySets(services=[], agents=[ask_if_clear])
    [worker] = build_workers(time_skipping_env.client, settings, sets, [AskIfClear])
    async with worker:
        result = await time_skipping_env.client.execute_workflow(
            AskIfClear.run, "Is it clear?", id=f"ask-{uuid.uuid4()}", task_queue=queue
        )
    sent = sum(estimate_tokens(m.text) for prompt in MODEL.received for m in prompt)
    written = sum(estimate_tokens(answer) for answer in SCRIPT)
    assert len(MODEL.received) == 2 and result.clear
    assert (result.cost.input_tokens, result.cost.output_tokens) == (sent, written)
    assert result.tokens == sent + written
    assert result.cost.dollars == (sent * 100 + written * 400) / 1_000_000
    assert result.cost.unpriced_tokens == 0
