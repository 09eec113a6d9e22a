"""The definition model: every step kind, YAML equals the builder, refusals name the problem."""

from datetime import timedelta
from pathlib import Path

import pytest

from graphs.dsl import (
    DefinitionError,
    GraphBuilder,
    GraphDefinition,
    check_definition,
    equals,
    exists,
    is_in,
    load_definition,
    load_definition_text,
    negate,
)
from graphs.dsl.model import (
    AgentStep,
    CheckpointStep,
    ConditionalStep,
    EndStep,
    ForEachStep,
    LoopStep,
    ParallelStep,
    SequenceStep,
    WaitStep,
)

SEED_004 = """
graph:
  - name: fetchTickets
    agent: jira_agent
    next: parseDocs
  - name: parseDocs
    agent: doc_agent
    next: searchContext
  - name: searchContext
    agent: search_agent
    fork:
      - synthesis
  - name: synthesis
    agent: synthesis_agent
"""

CUSTOM = """
name: custom
inputs: [ticket]
steps:
  - {agent: trigger, input: {key: ticket}}
  - checkpoint: triggered
  - parallel:
      - {agent: summarise}
      - {agent: assess, output: assessment}
    retry: {attempts: 3, initial_interval: 2s, backoff: 2}
    timeout: 5m
  - if: {path: assessment.approved, equals: true}
    then: [{agent: approve}]
    else: [{agent: reject}]
    on_error: [{agent: report}]
  - foreach: plan.files
    as: file
    do: [{agent: worker, input: {file: file}}]
    output: written
    max_parallel: 4
  - loop: [{agent: qa}]
    max_iterations: 15
    until: {not: {path: qa.fixes, exists: true}}
    counter: revision
  - {wait: approval, timeout: 2h, prompt: Ship it}
  - end: done
"""


def built_custom() -> GraphDefinition:
    return (
        GraphBuilder("custom", inputs=["ticket"])
        .agent("trigger", input={"key": "ticket"})
        .checkpoint("triggered")
        .parallel(lambda b: b.agent("summarise"), lambda b: b.agent("assess", output="assessment"))
        .with_retry(attempts=3, initial_interval="2s", backoff=2)
        .with_timeout("5m")
        .conditional(
            equals("assessment.approved", True),
            then=lambda b: b.agent("approve"),
            otherwise=lambda b: b.agent("reject"),
        )
        .on_error(lambda b: b.agent("report"))
        .foreach(
            "plan.files",
            lambda b: b.agent("worker", input={"file": "file"}),
            "written",
            as_="file",
            max_parallel=4,
        )
        .loop(
            lambda b: b.agent("qa"),
            max_iterations=15,
            until=negate(exists("qa.fixes")),
            counter="revision",
        )
        .wait("approval", "2h", prompt="Ship it")
        .end("done")
        .build()
    )


def test_yaml_and_builder_give_the_same_definition() -> None:
    assert load_definition_text(CUSTOM) == built_custom()


def test_every_step_kind_is_read() -> None:
    steps = load_definition_text(CUSTOM).steps
    kinds = [type(s) for s in steps]
    assert kinds == [
        AgentStep, CheckpointStep, ParallelStep, ConditionalStep, ForEachStep, LoopStep,
        WaitStep, EndStep,
    ]  # fmt: skip
    parallel = steps[2]
    assert isinstance(parallel, ParallelStep)
    assert parallel.retry is not None and parallel.retry.attempts == 3
    assert parallel.retry.initial_interval == timedelta(seconds=2)
    assert parallel.timeout == timedelta(minutes=5)
    assert isinstance(steps[3], ConditionalStep) and steps[3].on_error
    assert isinstance(steps[6], WaitStep) and steps[6].timeout == timedelta(hours=2)


def test_seed_004_node_form_loads_as_written() -> None:
    definition = load_definition_text(SEED_004)
    names = [s.label() for s in definition.steps]
    assert names == ["fetchTickets", "parseDocs", "searchContext", "parallel"]
    fork = definition.steps[3]
    assert isinstance(fork, ParallelStep)
    assert [b.label() for b in fork.parallel] == ["synthesis"]


def test_node_form_forks_join_at_next() -> None:
    definition = load_definition_text("""
graph:
  - {name: start, agent: a, fork: [left, right], next: join}
  - {name: left, agent: b}
  - {name: right, agent: c, next: right2}
  - {name: right2, agent: d}
  - {name: join, agent: e}
""")
    start, fork, join = definition.steps
    assert isinstance(fork, ParallelStep)
    assert isinstance(fork.parallel[1], SequenceStep)
    assert [s.label() for s in fork.parallel[1].sequence] == ["right", "right2"]
    assert join.label() == "join"


def test_node_form_finds_the_join_all_branches_reach() -> None:
    definition = load_definition_text("""
graph:
  - {name: search, agent: a, fork: [pdf, web]}
  - {name: pdf, agent: b, next: synthesis}
  - {name: web, agent: c, next: synthesis}
  - {name: synthesis, agent: d}
""")
    assert [s.label() for s in definition.steps] == ["search", "parallel", "synthesis"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("name: x\nsteps:\n - {agent: a, timeout: soon}", "step 'a' at steps[0], field 'timeout'"),
        ("name: x\nsteps:\n - {loop: [{agent: a}], name: l}", "cycle without a bound is refused"),
        ("name: x\nsteps:\n - {agent: a, retry: {attempts: 0}}", "field 'retry.attempts'"),
        ("name: x\nsteps:\n - {agent: a, parallel: []}", "exactly one of agent"),
        (
            "name: x\nsteps:\n - {name: c, if: {path: p, equals: 1, exists: true}}",
            "step 'c' at steps[0], field 'if': a condition takes exactly one",
        ),
        ("name: x\nsteps:\n - {if: {equals: 1}}", "needs a `path`"),
        ("name: x\nsteps:\n - {end: bye}\n - {agent: late}", "step 'late' at steps[1]: it can"),
        (
            "name: x\nsteps:\n - {if: {path: p, in: []}, then: [{agent: a}]}",
            "the condition can never hold",
        ),
        (
            "name: x\nsteps:\n - parallel: [{agent: a, output: o}, {agent: b, output: o}]",
            "branches 0 and 1 both write 'o'",
        ),
        ("name: x\nsteps:\n - {agent: a, name: s}\n - {agent: b, name: s}", "also used at"),
        ("graph:\n - {name: a, agent: x, next: b}\n - {name: b, agent: y, next: a}", "a -> b -> a"),
        ("graph:\n - {name: a, agent: x}\n - {name: b, agent: y}", "'b': it can never be reached"),
        ("graph:\n - {name: a, agent: x, next: nowhere}", "no node is named 'nowhere'"),
        ("name: x\nsteps: [{agent: a}]\nextra: 1", "field 'extra'"),
        (
            "name: x\nsteps:\n - {foreach: l, output: o, do: [{checkpoint: c}], name: f}",
            "step 'f' at steps[0], field 'collect'",
        ),
        ("name: x\nsteps: [", "not valid YAML"),
    ],
)
def test_bad_definitions_are_refused_naming_the_problem(text: str, expected: str) -> None:
    with pytest.raises(DefinitionError) as refused:
        load_definition_text(text)
    assert expected in str(refused.value)


def test_unknown_agent_is_refused_against_the_registry() -> None:
    definition = GraphBuilder("g").agent("planner").agent("ghost", name="haunt").build()
    with pytest.raises(DefinitionError) as refused:
        check_definition(definition, ["planner"])
    assert "step 'haunt' at steps[1], field 'agent': 'ghost' is not a registered agent" in str(
        refused.value
    )


def test_builder_refuses_modifiers_without_a_step() -> None:
    with pytest.raises(DefinitionError, match="with_retry needs a step before it"):
        GraphBuilder("g").with_retry(2)


def test_conditions() -> None:
    state = {"a": {"b": 1}, "route": "architect", "none": None}
    assert equals("a.b", 1).holds(state)
    assert not equals("a.c", 1).holds(state)
    assert is_in("route", ["architect", "end"]).holds(state)
    assert exists("a.b").holds(state) and not exists("none").holds(state)
    assert exists("missing", present=False).holds(state)
    assert negate(equals("route", "end")).holds(state)


def test_definition_survives_the_workflow_payload_round_trip() -> None:
    from temporalio.contrib.pydantic import pydantic_data_converter

    converter = pydantic_data_converter.payload_converter
    definition = built_custom()
    payloads = converter.to_payloads([definition])
    assert converter.from_payloads(payloads, [GraphDefinition])[0] == definition


def test_shipped_definitions_load(tmp_path: Path) -> None:
    from graphs.dsl import DEFINITIONS_DIR

    shipped = sorted(DEFINITIONS_DIR.glob("*.yaml"))
    for path in shipped:
        assert load_definition(path).name
    missing = tmp_path / "nope.yaml"
    with pytest.raises(DefinitionError, match="cannot read it"):
        load_definition(missing)


def test_a_bare_name_is_the_shipped_definition_even_beside_a_folder_of_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "research").mkdir()  # as the repository's root has its research/ package
    monkeypatch.chdir(tmp_path)
    assert load_definition("research").name == "research"


def test_heartbeat_timeouts_in_nodes_blocks_and_the_builder() -> None:
    definition = load_definition_text("""
graph:
  - {name: start, agent: a, heartbeat: 20s, fork: [left, right], next: join}
  - {name: left, agent: b}
  - {name: right, agent: c, heartbeat: 5}
  - {name: join, agent: d}
""")
    start, fork, join = definition.steps
    assert isinstance(start, AgentStep) and start.heartbeat == timedelta(seconds=20)
    assert isinstance(fork, ParallelStep)
    assert [b.heartbeat for b in fork.parallel] == [None, timedelta(seconds=5)]
    built = GraphBuilder("g").agent("a").with_heartbeat("30s").build()
    assert built.steps[0].heartbeat == timedelta(seconds=30)
    from graphs.dsl import DEFINITIONS_DIR

    research = load_definition(DEFINITIONS_DIR / "research.yaml")
    agents = [s for s in research.steps if isinstance(s, AgentStep)]
    agents += [b for s in research.steps if isinstance(s, ParallelStep) for b in s.parallel]
    assert len(agents) == 6
    assert {a.heartbeat for a in agents} == {timedelta(seconds=20)}
