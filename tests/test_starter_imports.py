"""The command line stays quick: no subcommand loads the agent graphs or LangChain.

Every row of starter.COMMANDS is checked, so a subcommand added later is held to the same rule.
"""

import json
import subprocess
import sys

import pytest

import starter
from config import ROOT
from vocabulary.ticket_states import Status

HEAVY = ("langchain_core", "langchain_openai", "langgraph", "openai", "graphs.implementation")


def loaded_after(code: str) -> list[str]:
    """Heavy modules loaded by running `code` in a fresh interpreter."""
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout.splitlines()[-1])
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY)]


def test_importing_the_command_line_loads_nothing_heavy() -> None:
    assert loaded_after("import starter; starter.parse_args(['status', 'DEMO-1'])") == []


@pytest.mark.parametrize("command", [c.name for c in starter.COMMANDS])
def test_each_subcommand_loads_nothing_heavy(command: str) -> None:
    code = f"import starter; starter.handler({command!r})"
    assert loaded_after(code) == [], f"`starter.py {command}` imports the agent graphs"


def test_a_bare_key_starts_the_ticket_and_flags_reach_their_subcommand() -> None:
    args = starter.parse_args(["DEMO-1", "--follow"])
    assert (args.command, args.key, args.follow, args.restart) == ("start", "DEMO-1", True, False)
    assert starter.parse_args(["status", "DEMO-1", "--full"]).full is True


def test_list_offers_every_status() -> None:
    for status in Status:
        assert starter.parse_args(["list", "--status", status.value]).status == status.value


@pytest.mark.parametrize("command", ["status", "list", "watch"])
def test_reading_commands_load_no_jira_client_nor_graph_definitions(command: str) -> None:
    code = f"import starter, sys; starter.handler({command!r}); print(sys.modules.keys())"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    # Nor the gRPC client, the settings' pydantic-settings, an event loop or any of the workflows
    # (their words come from vocabulary/): they read over HTTP (tests/cli/test_status.py runs them).
    slow = ("config", "pydantic_settings", "temporalio.client", "asyncio", "workflows")
    for module in ("integrations.jira.client", "httpx", "graphs.dsl.model", "yaml", *slow):
        assert f"'{module}'" not in done.stdout, f"`starter.py {command}` imports {module}"
    if command == "list":  # a list of rows builds no model
        assert "'pydantic'" not in done.stdout
