"""The node form of a definition (`graph:` nodes with `name`, `agent`, `next`, `fork`) as steps.

Each node is an agent step. `next` names the node after it; `fork` names nodes that start
branches run in parallel, which join at the forking node's `next`, or else at the first node
every branch reaches. A `next` back to a node already on the way is a cycle without a bound
and is refused (write the repetition as a `loop` step); so is a node nothing leads to.
"""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphs.dsl.errors import DefinitionError, from_validation
from graphs.dsl.model import NAME_PATTERN, AgentStep, ParallelStep, SequenceStep, Step

AGENT_FIELDS = ("input", "params", "output", "retry", "timeout", "heartbeat", "on_error")


class Node(BaseModel):
    """One node: an agent and where the graph goes after it."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=NAME_PATTERN)
    agent: str
    next: str | None = None
    fork: list[str] = Field(default_factory=list)
    input: dict[str, str] | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    output: str | None = None
    retry: dict[str, Any] | None = None
    timeout: Any = None
    heartbeat: Any = None
    on_error: list[Any] | None = None


class _Converter:
    def __init__(self, source: str, nodes: list[Node]) -> None:
        self.source = source
        self.nodes = {node.name: node for node in nodes}
        self.visited: set[str] = set()
        self.problems: list[str] = []

    def step(self, node: Node) -> Step:
        fields = {k: getattr(node, k) for k in AGENT_FIELDS if getattr(node, k) not in (None, {})}
        return AgentStep.model_validate({"name": node.name, "agent": node.agent, **fields})

    def successors(self, name: str) -> list[str]:
        """The names `next` leads through from a node, in order (stopping at a repeat)."""
        chain: list[str] = []
        current = self.nodes[name].next
        while current in self.nodes and current not in chain:
            chain.append(current)
            current = self.nodes[current].next
        return chain

    def join_of(self, node: Node) -> str | None:
        if node.next is not None:
            return node.next
        chains = [[start, *self.successors(start)] for start in node.fork]
        common = [n for n in chains[0] if all(n in chain for chain in chains[1:])]
        return common[0] if common and len(chains) > 1 else None

    def chain(self, start: str | None, stop: str | None, path: list[str]) -> list[Step]:
        steps: list[Step] = []
        current = start
        while current is not None and current != stop:
            if current in path:
                loop = " -> ".join([*path[path.index(current) :], current])
                self.problems.append(
                    f"node '{path[-1]}', field 'next': cycle without a bound ({loop});"
                    " write the repetition as a `loop` step with `max_iterations`"
                )
                return steps
            path = [*path, current]
            self.visited.add(current)
            node = self.nodes[current]
            steps.append(self.step(node))
            if not node.fork:
                current = node.next
                continue
            join = self.join_of(node)
            branches = [self.chain(start, join, path) for start in node.fork]
            steps.append(ParallelStep(parallel=[as_step(b) for b in branches if b]))
            current = join
        return steps


def as_step(steps: list[Step]) -> Step:
    """One step for a list: itself when alone, else a sequence."""
    return steps[0] if len(steps) == 1 else SequenceStep(sequence=steps)


def nodes_to_steps(source: str, raw_nodes: Any) -> list[Step]:
    """Steps for the node form, or a DefinitionError naming each node at fault."""
    if not isinstance(raw_nodes, list) or not raw_nodes:
        raise DefinitionError(source, ["field 'graph': a non-empty list of nodes is expected"])
    nodes, problems = [], []
    for index, raw in enumerate(raw_nodes):
        try:
            nodes.append(Node.model_validate(raw))
        except ValidationError as err:
            problems += from_validation(source, {"graph": raw_nodes}, err).problems
            problems = [p.replace("the graph", f"node {index}", 1) for p in problems]
    if problems:
        raise DefinitionError(source, problems)
    converter = _Converter(source, nodes)
    names = [node.name for node in nodes]
    for node in nodes:
        if names.count(node.name) > 1:
            problems.append(f"node '{node.name}', field 'name': used by more than one node")
        for field, target in [("next", node.next), *(("fork", t) for t in node.fork)]:
            if target is not None and target not in converter.nodes:
                problems.append(f"node '{node.name}', field '{field}': no node is named '{target}'")
    if problems:
        raise DefinitionError(source, list(dict.fromkeys(problems)))
    steps = converter.chain(nodes[0].name, None, [])
    for node in nodes:
        if node.name not in converter.visited:
            converter.problems.append(
                f"node '{node.name}': it can never be reached; no `next` or `fork` leads to it"
                f" from the first node '{nodes[0].name}'"
            )
    if converter.problems:
        raise DefinitionError(source, list(dict.fromkeys(converter.problems)))
    return steps
