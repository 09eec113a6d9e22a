"""Types of the node callables the graph factories build around a model."""

from typing import Any, Protocol, TypeVar

S = TypeVar("S", contravariant=True)


class AsyncNode(Protocol[S]):
    """A node that awaits the model: state in, state update out."""

    async def __call__(self, state: S) -> dict[str, Any]: ...


class SyncNode(Protocol[S]):
    """A node that only computes: state in, state update out."""

    def __call__(self, state: S) -> dict[str, Any]: ...
