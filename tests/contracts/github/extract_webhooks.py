"""Extract GitHub's documented webhook deliveries, and their JSON Schemas, for the events
ticketsmith reads (and the schemas alone of the others the emulator sends).

`python -m tests.contracts.github.extract_webhooks` fetches the pinned octokit packages with
`npm pack` (the examples are scraped from GitHub's webhook documentation) and writes
`webhook_examples.json` and `webhook_schemas.json` beside this file, so the tests run offline
from a clean clone. Payloads are kept whole; only whole examples are left out (see SELECTION).
"""

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from tests.contracts.github.extract import json_schema, npm_pack

EXAMPLES_PACKAGE = ("@octokit/webhooks-examples", "7.6.1")
SCHEMAS_PACKAGE = ("@octokit/webhooks-schemas", "7.6.1")
# What npm answered for the pinned versions: a different tarball is a different fixture.
INTEGRITY = {
    "@octokit/webhooks-examples": "sha512-De6U3XB6O3DtCa7bKgCMzTHdeopqqZ6SNivMYJnK65ierKL1AnNI"
    "A0tkRYCRS7lwGT792d+Ps1WbfHlso6MynQ==",
    "@octokit/webhooks-schemas": "sha512-qW0Bwtb76r4m2WzVhKDyfEeEnt1GEQoRjkCqmq2ZeB0nNVDJ+Z2L"
    "BDS9FDPyduuMXf/ZTWiCJp9PFFHgRfBe3A==",
}
EXAMPLES_FILE = "api.github.com/index.json"
HERE = Path(__file__).resolve().parent
EXAMPLES_OUT = HERE / "webhook_examples.json"
SCHEMAS_OUT = HERE / "webhook_schemas.json"
# The events the webhook app reads, with the actions it acts on (None: the event has none).
ACTS_ON: dict[str, set[str | None]] = {
    "check_run": {"completed"},
    "check_suite": {"completed"},
    "workflow_run": {"completed"},
    "status": {None},
    "pull_request": {"closed", "synchronize"},
    "pull_request_review": {"submitted"},
    "pull_request_review_comment": {"created"},
    "issue_comment": {"created"},
    "push": {None},
    "ping": {None},
}
# Events the emulator sends that the webhook app does not read: their schemas are kept, so the
# emulator's deliveries are checked, but no examples (nothing reads them).
ALSO_SENT = ("workflow_job", "issues")
SELECTION = (
    "every example of an action ticketsmith acts on (and of events without actions); "
    "the first example of each other action"
)


def select(examples: list[dict[str, Any]], acts_on: set[str | None]) -> list[dict[str, Any]]:
    """The examples SELECTION keeps, in the package's order."""
    seen: set[str | None] = set()
    kept = []
    for example in examples:
        action = example.get("action")
        if action in acts_on or action not in seen:
            kept.append(example)
        seen.add(action)
    return kept


def reachable(definitions: dict[str, Any], roots: list[str]) -> dict[str, Any]:
    """The definitions `roots` name, and every definition they refer to, transitively."""
    found: dict[str, Any] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in found:
            continue
        found[name] = definitions[name]
        todo.extend(_refs(definitions[name]))
    return dict(sorted(found.items()))


def _refs(node: Any) -> list[str]:
    if isinstance(node, list):
        return [ref for item in node for ref in _refs(item)]
    if not isinstance(node, dict):
        return []
    own = node.get("$ref")
    local = [own.removeprefix("#/definitions/")] if isinstance(own, str) else []
    return local + [ref for value in node.values() for ref in _refs(value)]


def event_definition(definitions: dict[str, Any], event: str) -> str:
    """The definition of every delivery of an event (`check_run_event`, `ping$event`)."""
    for name in (f"{event}_event", f"{event}$event"):
        if name in definitions:
            return name
    raise KeyError(f"no schema for the {event} event in {SCHEMAS_PACKAGE[0]}")


def fetched(into: Path, package: str, version: str) -> tuple[Path, dict[str, str]]:
    """A pinned package, checked against the integrity recorded for it."""
    folder, facts = npm_pack(into, package, version)
    if facts["integrity"] != INTEGRITY[package]:
        raise SystemExit(f"{package}@{version} is not the tarball pinned here: {facts}")
    return folder, facts


def extract_examples(package_dir: Path, facts: dict[str, str]) -> dict[str, Any]:
    """The selected examples of every event in ACTS_ON, with where they come from."""
    index = {e["name"]: e for e in json.loads((package_dir / EXAMPLES_FILE).read_text())}
    return {
        "source": {**facts, "file": EXAMPLES_FILE},
        "selection": SELECTION,
        "examples": {event: select(index[event]["examples"], ACTS_ON[event]) for event in ACTS_ON},
    }


def extract_schemas(package_dir: Path, facts: dict[str, str]) -> dict[str, Any]:
    """The schema of each event in ACTS_ON and ALSO_SENT: its definition (every action's) and
    those it uses, prose dropped."""
    full = json.loads((package_dir / "schema.json").read_text())
    events = {e: event_definition(full["definitions"], e) for e in [*ACTS_ON, *ALSO_SENT]}
    return {
        "source": {**facts, "file": "schema.json"},
        "$schema": full["$schema"],
        "events": events,
        "definitions": {
            name: json_schema(schema)
            for name, schema in reachable(full["definitions"], list(events.values())).items()
        },
    }


def main(argv: list[str]) -> None:
    """Write both fixtures from freshly fetched packages (argv: nothing)."""
    if argv:
        raise SystemExit("usage: python -m tests.contracts.github.extract_webhooks")
    with tempfile.TemporaryDirectory() as tmp:
        examples_dir, examples_facts = fetched(Path(tmp), *EXAMPLES_PACKAGE)
        schemas_dir, schemas_facts = fetched(Path(tmp), *SCHEMAS_PACKAGE)
        examples = extract_examples(examples_dir, examples_facts)
        schemas = extract_schemas(schemas_dir, schemas_facts)
    EXAMPLES_OUT.write_text(json.dumps(examples, indent=1, ensure_ascii=False) + "\n")
    SCHEMAS_OUT.write_text(json.dumps(schemas, indent=1, sort_keys=True) + "\n")
    for out in (EXAMPLES_OUT, SCHEMAS_OUT):
        sys.stdout.write(f"wrote {out.name} ({out.stat().st_size // 1024} KiB)\n")


if __name__ == "__main__":
    main(sys.argv[1:])
