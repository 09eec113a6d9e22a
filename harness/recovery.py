"""What the worker-crash test and the recovery bench share: the call held while the worker is
killed, and how the implementation's progress is read from its heartbeats."""

from temporalio.client import Client

from graphs.implementation.journal import Progress
from harness.model_server import Call

OPERATIONS, TESTS = "calc/operations.py", "tests/test_operations.py"
POWER = (
    "\n\ndef power(base: float, exponent: int) -> float:\n"
    '    """Return base raised to exponent."""\n    return base**exponent\n'
)
TEST_POWER = (
    "\n\ndef test_power() -> None:\n    from calc.operations import power\n\n"
    "    assert power(2, 3) == 8\n"
)


def held(call: Call) -> bool:
    """The first revision's call for the test file waits until released."""
    return call.task == "implement_file" and call.inputs.get("path") == TESTS


async def progress(client: Client, workflow_id: str) -> Progress | None:
    """The progress the running implementation activity last heartbeated, if any."""
    try:
        described = await client.get_workflow_handle(workflow_id).describe()
    except Exception:  # the child workflow does not exist yet
        return None
    for activity in described.raw_description.pending_activities:
        if activity.heartbeat_details.payloads:
            values = await client.data_converter.decode(activity.heartbeat_details.payloads)
            return Progress.model_validate(values[0])
    return None
