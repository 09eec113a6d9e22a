"""The graph interpreter: runs a definition's steps on the state, deterministically.

Agent steps are activities named after the agent, with the step's timeout, retry policy and a
summary naming the step; everything else (branching, merging, loops, waits) is workflow code.
"""

import asyncio
import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from temporalio import workflow
from temporalio.common import RetryPolicy
from temporalio.exceptions import ActivityError, ApplicationError, is_cancelled_exception

with workflow.unsafe.imports_passed_through():
    from graphs.dsl.calls import AgentCall, AgentResult
    from graphs.dsl.model import (
        AgentStep,
        CheckpointStep,
        ConditionalStep,
        EndStep,
        ForEachStep,
        LoopStep,
        ParallelStep,
        Retry,
        SequenceStep,
        Step,
        StepBase,
        WaitStep,
    )
    from graphs.dsl.state import MISSING, get_path, merge_branches, set_path
    from graphs.dsl.validate import outputs
    from workflows.graph.messages import MAX_STEP_RECORDS, GraphStatus, StepRecord

DEFAULT_TIMEOUT = timedelta(minutes=10)
DEFAULT_RETRY = Retry()
ALWAYS_FINAL = ["ModelAnswerError", "AgentInputError", "DefinitionError"]
State = dict[str, Any]


class GraphEnded(Exception):
    """An `end` step finished the graph."""


def retry_policy(retry: Retry) -> RetryPolicy:
    """A definition's retry as Temporal's policy."""
    return RetryPolicy(
        initial_interval=retry.initial_interval,
        backoff_coefficient=retry.backoff,
        maximum_interval=retry.max_interval,
        maximum_attempts=retry.attempts,
        non_retryable_error_types=[*ALWAYS_FINAL, *retry.non_retryable],
    )


def error_of(err: BaseException) -> dict[str, str]:
    """The failure's type and innermost message, as stored in the state for a handler."""
    kind = getattr(err, "type", None) or type(err).__name__
    while err.__cause__ is not None:
        err = err.__cause__
        kind = getattr(err, "type", None) or type(err).__name__
    return {"type": str(kind), "message": getattr(err, "message", None) or str(err)}


class GraphRunner:
    """Runs steps, keeping the status (and so the query and Web UI) up to date."""

    def __init__(
        self,
        status: GraphStatus,
        queues: dict[str, str],
        inbox: dict[str, Any],
        on_change: Callable[[], None],
    ) -> None:
        self.status = status
        self.queues = queues
        self.inbox = inbox
        self.on_change = on_change

    async def run(
        self, steps: list[Step], state: State, defaults: StepBase, scope: str, main: bool = True
    ) -> State:
        """Run steps in order, returning the state after them; `main`: not inside a branch."""
        for index, step in enumerate(steps):
            # The position keeps idempotency keys apart for steps of the same name.
            state = await self.step(step, state, defaults, f"{scope}.{index}", main)
            if main:
                self.status.state = state
        return state

    async def step(
        self, step: Step, state: State, defaults: StepBase, scope: str, main: bool = True
    ) -> State:
        """One step; on failure its error handler (if any) runs and the graph goes on."""
        inherited = StepBase(
            retry=step.retry or defaults.retry,
            timeout=step.timeout or defaults.timeout,
            heartbeat=step.heartbeat or defaults.heartbeat,
        )
        record = self._record(step)
        try:
            state = await self._dispatch(step, state, inherited, scope, main)
        except (ActivityError, ApplicationError) as err:
            if is_cancelled_exception(err) or not step.on_error:
                self._finish(record, "failed", error_of(err)["message"])
                raise
            self._finish(record, "handled", error_of(err)["message"])
            state = {**state, "error": {"step": step.label(), **error_of(err)}}
            handler = f"{scope}/{step.label()}!"
            return await self.run(step.on_error, state, inherited, handler, main)
        self._finish(record, "completed", "")
        return state

    async def _dispatch(
        self, step: Step, state: State, defaults: StepBase, scope: str, main: bool
    ) -> State:
        if isinstance(step, AgentStep):
            return await self._agent(step, state, defaults, scope)
        if isinstance(step, SequenceStep):
            return await self.run(step.sequence, state, defaults, scope, main)
        if isinstance(step, ParallelStep):
            branches = [
                self.run([b], copy.deepcopy(state), defaults, f"{scope}/{number}", main=False)
                for number, b in enumerate(step.parallel)
            ]
            return merge_branches(state, await gather(branches))
        if isinstance(step, ForEachStep):
            return await self._foreach(step, state, defaults, scope)
        if isinstance(step, ConditionalStep):
            branch = step.then if step.if_.holds(state) else step.else_
            return await self.run(branch, state, defaults, scope, main)
        if isinstance(step, LoopStep):
            return await self._loop(step, state, defaults, scope, main)
        if isinstance(step, CheckpointStep):
            self.status.checkpoint = step.checkpoint
            self.status.checkpoints.append(step.checkpoint)
            self.on_change()
            return state
        if isinstance(step, WaitStep):
            return await self._wait(step, state)
        if isinstance(step, EndStep):
            found = get_path(state, step.message_from) if step.message_from else MISSING
            raise GraphEnded(step.end if found in (MISSING, None) else str(found))
        raise ApplicationError(f"unknown step kind {type(step).__name__}", non_retryable=True)

    async def _agent(self, step: AgentStep, state: State, defaults: StepBase, scope: str) -> State:
        if step.input is None:
            arguments = {k: v for k, v in state.items() if not k.startswith("_")}
        else:
            arguments = {k: none_if_missing(get_path(state, p)) for k, p in step.input.items()}
        info = workflow.info()
        call = AgentCall(
            graph=self.status.name,
            step=step.label(),
            idempotency_key=f"{info.workflow_id}/{info.run_id}/{scope}/{step.label()}",
            input=arguments,
            params=step.params,
        )
        result = await workflow.execute_activity(
            step.agent,
            call,
            result_type=AgentResult,
            task_queue=self.queues.get(step.agent),
            start_to_close_timeout=defaults.timeout or DEFAULT_TIMEOUT,
            heartbeat_timeout=defaults.heartbeat,
            retry_policy=retry_policy(defaults.retry or DEFAULT_RETRY),
            summary=f"step {step.label()} (agent {step.agent})"[:200],
        )
        self.status.tokens += result.tokens
        self.status.cost = self.status.cost.plus(result.cost)
        state = copy.copy(state)
        set_path(state, step.output_key(), result.output)
        return state

    async def _foreach(
        self, step: ForEachStep, state: State, defaults: StepBase, scope: str
    ) -> State:
        items = get_path(state, step.foreach)
        if not isinstance(items, list):
            raise ApplicationError(
                f"step {step.label()}: '{step.foreach}' is not a list in the state",
                type="AgentInputError",
                non_retryable=True,
            )
        collect = step.collect or min(outputs(step.do[-1]))  # exactly one: checked at start
        limit = asyncio.Semaphore(step.max_parallel or max(1, len(items)))

        async def one(index: int, item: Any) -> State:
            async with limit:
                branch = {**copy.deepcopy(state), step.as_: item, f"{step.as_}_index": index}
                here = f"{scope}/{step.label()}#{index}"
                return await self.run(step.do, branch, defaults, here, main=False)

        done = await gather([one(i, item) for i, item in enumerate(items)])
        return {**state, step.output: [none_if_missing(get_path(s, collect)) for s in done]}

    async def _loop(
        self, step: LoopStep, state: State, defaults: StepBase, scope: str, main: bool
    ) -> State:
        for iteration in range(1, step.max_iterations + 1):
            state = {**state, step.counter: iteration}
            here = f"{scope}/{step.label()}#{iteration}"
            state = await self.run(step.loop, state, defaults, here, main)
            if step.until is not None and step.until.holds(state):
                break
        return state

    async def _wait(self, step: WaitStep, state: State) -> State:
        self.status.waiting_for = step.wait
        self.status.message = step.prompt or f"Waiting for input '{step.wait}'"
        self.on_change()
        try:
            await workflow.wait_condition(
                lambda: step.wait in self.inbox,
                timeout=step.timeout,
                timeout_summary=f"deadline for input '{step.wait}'",
            )
        except TimeoutError:
            raise ApplicationError(
                f"no input '{step.wait}' arrived within {step.timeout}",
                type="WaitExpired",
                non_retryable=True,
            ) from None
        finally:
            self.status.waiting_for = None
            self.status.message = f"Received input '{step.wait}'"
            self.on_change()
        state = copy.copy(state)
        set_path(state, step.output_key(), self.inbox.pop(step.wait))
        return state

    def _record(self, step: StepBase) -> StepRecord:
        self.status.current_step = step.label()
        self.status.steps.append(
            StepRecord(step=step.label(), kind=step.kind(), status="running",
                       started_at=workflow.now())
        )  # fmt: skip
        record = self.status.steps[-1]
        del self.status.steps[:-MAX_STEP_RECORDS]
        self.on_change()
        return record

    def _finish(self, record: StepRecord, status: str, message: str) -> None:
        record.status, record.ended_at, record.message = status, workflow.now(), message


def none_if_missing(value: Any) -> Any:
    """A state value, None where the state has none."""
    return None if value is MISSING else value


async def gather(branches: list[Any]) -> list[State]:
    """Run branches concurrently; all end before the first failure is raised."""
    results = await asyncio.gather(*branches, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException):
            raise result
    return results  # type: ignore[return-value]
