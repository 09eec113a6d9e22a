"""What the command line does with graph runs: start one from a definition, send it human
input, read its status, list and cancel runs. Workflow ids start with `graph-`."""

import asyncio
import uuid
from typing import Any

import yaml
from temporalio.client import (
    Client,
    WorkflowFailureError,
    WorkflowHandle,
    WorkflowUpdateFailedError,
)
from temporalio.exceptions import CancelledError
from temporalio.service import RPCError, RPCStatusCode

from cli.commands import CommandError, connect
from cli.graphs.listing import PREFIX
from config import CommandLineSettings
from graphs.dsl import DefinitionError, GraphDefinition, check_definition, load_definition
from graphs.dsl.catalog import AGENTS, agent_queues
from tickets.launch import web_ui_link
from workflows.graph.messages import (
    GraphInput,
    GraphInputAccepted,
    GraphInputMessage,
    GraphResult,
    GraphStatus,
)


def parse_inputs(pairs: list[str]) -> dict[str, Any]:
    """`key=value` pairs; values read as YAML scalars (`3`, `true`), else kept as text."""
    inputs: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"'{pair}' is not an input; write it as NAME=VALUE")
        try:
            parsed = yaml.safe_load(value) if value.strip() else ""
        except yaml.YAMLError:
            parsed = value
        inputs[key.strip()] = parsed if isinstance(parsed, str | int | float | bool) else value
    return inputs


def checked_definition(path: str) -> GraphDefinition:
    """The definition at path (or a shipped one by name), checked against the registry."""
    try:
        definition = load_definition(path)
        check_definition(definition, AGENTS)
    except DefinitionError as err:
        raise CommandError(str(err)) from None
    return definition


async def start_graph(
    settings: CommandLineSettings,
    definition: GraphDefinition,
    inputs: dict[str, Any],
    suffix: str = "",
) -> tuple[Client, WorkflowHandle[Any, GraphResult]]:
    """Start a run of the definition; refuses missing inputs before anything starts."""
    missing = [name for name in definition.inputs if name not in inputs]
    if missing:
        flags = " ".join(f"--input {name}=..." for name in missing)
        raise CommandError(f"graph '{definition.name}' needs {', '.join(missing)}: add {flags}")
    client = await connect(settings)
    run_id = f"{PREFIX}{definition.name}-{suffix + '-' if suffix else ''}{uuid.uuid4().hex[:8]}"
    handle = await client.start_workflow(
        "GraphWorkflow",
        GraphInput(
            definition=definition,
            inputs=inputs,
            agent_queues=agent_queues(settings.task_queue, settings.agent_task_queue),
        ),
        id=run_id,
        task_queue=settings.task_queue,
        result_type=GraphResult,
        static_summary=f"graph {definition.name}: {definition.description}"[:200],
    )
    return client, handle


async def read_status(settings: CommandLineSettings, run_id: str) -> GraphStatus:
    """The run's status query."""
    handle = (await connect(settings)).get_workflow_handle(run_id)
    try:
        return await handle.query("status", result_type=GraphStatus)
    except RPCError as err:
        if err.status == RPCStatusCode.NOT_FOUND:
            raise CommandError(f"no graph run {run_id}; `starter.py list` shows them") from None
        raise CommandError(f"cannot read the status of {run_id}: {err.message}") from err


def render_graph_status(current: GraphStatus, link: str) -> str:
    """The status as text: where it is, its checkpoints, its last steps."""
    lines = [f"{current.name}: {current.status.value}", f"  {current.message}"]
    if current.checkpoints:
        lines.append(f"  checkpoints: {', '.join(current.checkpoints)}")
    if current.waiting_for:
        lines.append(f"  waiting for input '{current.waiting_for}'")
    for step in current.steps[-8:]:
        lines.append(
            f"  step {step.step} ({step.kind}): {step.status} {step.message[:80]}".rstrip()
        )
    lines += [
        f"  model tokens: {current.tokens} ({current.cost.split()})",
        f"  cost: {current.cost.text()}",
        f"  {link}",
    ]
    return "\n".join(lines)


async def send_input(
    settings: CommandLineSettings, run_id: str, name: str, pairs: list[str], author: str
) -> str:
    """Human input for a run's `wait` step, as an update."""
    handle = (await connect(settings)).get_workflow_handle(run_id)
    message = GraphInputMessage(name=name, value=parse_inputs(pairs), author=author)
    try:
        accepted = await handle.execute_update(
            "submit_input", message, result_type=GraphInputAccepted
        )
    except RPCError as err:
        raise CommandError(f"cannot send input to {run_id}: {err.message}") from err
    except WorkflowUpdateFailedError as err:
        raise CommandError(getattr(err.cause, "message", None) or str(err)) from None
    return accepted.message


async def cancel_graph(settings: CommandLineSettings, run_id: str, wait_s: float = 60) -> str:
    """Cancel a run and wait for it to stop."""
    handle = (await connect(settings)).get_workflow_handle(run_id)
    try:
        await handle.cancel()
        await asyncio.wait_for(handle.result(), wait_s)
    except RPCError as err:
        raise CommandError(f"cannot cancel {run_id}: {err.message}") from err
    except WorkflowFailureError as err:
        if isinstance(err.cause, CancelledError):
            return f"{run_id} cancelled"
        raise CommandError(f"{run_id} ended while cancelling: {err.cause}") from None
    except TimeoutError:
        return f"cancel requested for {run_id}; it stops after its current step"
    return f"{run_id} had already finished; nothing was cancelled"


async def graph_command(args: Any, settings: CommandLineSettings) -> str:
    """Carry out `graph`, `input`, or `status`/`cancel` of a graph run."""
    if args.command == "graph":
        definition = checked_definition(args.file)
        _, handle = await start_graph(settings, definition, parse_inputs(args.input or []))
        link = web_ui_link(settings, handle.id, handle.result_run_id)
        if not args.wait:
            return f"started {handle.id} ({definition.name})\n{link}"
        result = await handle.result()
        return f"{handle.id}: {result.status.value}: {result.message}\n{link}"
    if args.command == "input":
        return await send_input(settings, args.key, args.name, args.values, args.author)
    if args.command == "cancel":
        return await cancel_graph(settings, args.key)
    current = await read_status(settings, args.key)
    return render_graph_status(current, web_ui_link(settings, args.key))
