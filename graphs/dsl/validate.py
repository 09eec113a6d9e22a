"""Checks a definition must pass before anything starts: known agents, reachable steps,
bounded cycles (loops carry `max_iterations`), parallel branches that do not overwrite
each other, distinct step names."""

from collections.abc import Collection, Iterator

from graphs.dsl.errors import DefinitionError
from graphs.dsl.model import (
    AgentStep,
    ConditionalStep,
    EndStep,
    ForEachStep,
    GraphDefinition,
    ParallelStep,
    SequenceStep,
    Step,
    StepBase,
    WaitStep,
)


def walk(steps: list[Step], path: str = "steps") -> Iterator[tuple[str, StepBase]]:
    """Every step with its location, depth first."""
    for index, step in enumerate(steps):
        here = f"{path}[{index}]"
        yield here, step
        for number, child in enumerate(step.children()):
            yield from walk(child, f"{here}.{number}")


def outputs(step: StepBase) -> set[str]:
    """The top-level state keys a step (and everything in it) writes."""
    if isinstance(step, AgentStep):
        return {step.output_key().split(".")[0]}
    if isinstance(step, WaitStep):
        return {step.output_key().split(".")[0]}
    if isinstance(step, ForEachStep):
        return {step.output}
    return {key for child in step.children() for s in child for key in outputs(s)}


def check_definition(definition: GraphDefinition, agents: Collection[str] | None = None) -> None:
    """Raise DefinitionError listing every problem; `agents` are the registered agent names."""
    problems: list[str] = []
    names: dict[str, str] = {}
    for where, step in walk(definition.steps):
        label = f"step '{step.label()}' at {where}"
        if step.name:
            if step.name in names:
                problems.append(f"{label}, field 'name': also used at {names[step.name]}")
            names.setdefault(step.name, where)
        if isinstance(step, AgentStep) and agents is not None and step.agent not in agents:
            known = ", ".join(sorted(agents))
            problems.append(
                f"{label}, field 'agent': '{step.agent}' is not a registered agent; known: {known}"
            )
        if isinstance(step, ParallelStep):
            problems += overlapping_branches(label, step)
        if isinstance(step, ForEachStep) and not step.collect and len(outputs(step.do[-1])) != 1:
            problems.append(
                f"{label}, field 'collect': the last step of `do` does not write exactly one"
                " value; name the state key to gather from each item with `collect`"
            )
        if isinstance(step, ConditionalStep) and never_true(step):
            problems.append(
                f"{label}, field 'if': the condition can never hold, so 'then' is never reached"
            )
        for child in step.children():
            problems += after_end(child, where)
    problems += after_end(definition.steps, "steps")
    if problems:
        raise DefinitionError(f"graph '{definition.name}'", problems)


def overlapping_branches(label: str, step: ParallelStep) -> list[str]:
    """Branches that write the same state key would overwrite each other on merge."""
    seen: dict[str, int] = {}
    problems = []
    for number, branch in enumerate(step.parallel):
        for key in sorted(outputs(branch)):
            if key in seen:
                problems.append(
                    f"{label}, field 'parallel': branches {seen[key]} and {number} both write"
                    f" '{key}'; give one of them another `output`"
                )
            seen.setdefault(key, number)
    return problems


def never_true(step: ConditionalStep) -> bool:
    """A condition that is false for every state: `in: []` or `any: []`."""
    operator = step.if_.operators()[0]
    return (operator == "in" and not step.if_.in_) or (operator == "any" and not step.if_.any_)


def after_end(steps: list[Step], path: str) -> list[str]:
    """Steps after an `end` in the same list can never run."""
    for index, step in enumerate(steps[:-1]):
        if isinstance(step, EndStep) or (
            isinstance(step, SequenceStep) and isinstance(step.sequence[-1], EndStep)
        ):
            follower = steps[index + 1]
            return [
                f"step '{follower.label()}' at {path}[{index + 1}]: it can never be reached,"
                f" step {path}[{index}] ends the graph before it"
            ]
    return []
