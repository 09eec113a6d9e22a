"""Faults injected per route: fixed or random latency, errors at a rate, 429 with Retry-After."""

import json
import random
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator


class Fault(BaseModel):
    """Latency and/or an error for requests whose path matches a regular expression."""

    path: str = Field(description="regular expression matched against the whole path")
    method: str | None = None
    status_code: int | list[int] | None = Field(
        default=None, description="None: only delay; a list: one of them at random"
    )
    rate: float = Field(default=1.0, ge=0, le=1, description="share of matching requests hit")
    delay_seconds: float = Field(default=0.0, ge=0)
    max_delay_seconds: float | None = Field(
        default=None, description="set: the delay is uniform between delay_seconds and this"
    )
    retry_after: float | None = Field(default=None, ge=0, description="Retry-After, in seconds")
    when: Literal["before", "after"] = Field(
        default="before",
        description="before: the request never reaches the API (no effect); "
        "after: the API handles it and the answer is lost (its effect stays)",
    )
    body: dict[str, Any] | None = None
    headers: dict[str, str] = {}
    times: int | None = Field(default=1, description="requests to hit; None: until cleared")

    @model_validator(mode="after")
    def _check(self) -> "Fault":
        try:
            re.compile(self.path)
        except re.error as err:
            raise ValueError(f"path is not a regular expression: {err}") from err
        if self.max_delay_seconds is not None and self.max_delay_seconds < self.delay_seconds:
            raise ValueError("max_delay_seconds must not be below delay_seconds")
        return self

    def matches(self, method: str, path: str) -> bool:
        """Whether this fault applies to a request (before the rate is rolled)."""
        if self.times is not None and self.times <= 0:
            return False
        if self.method and self.method.upper() != method:
            return False
        return re.fullmatch(self.path, path) is not None


class Hit(BaseModel):
    """What the faults do to one request: wait, then maybe answer with an error."""

    delay_seconds: float = 0.0
    status_code: int | None = None
    when: Literal["before", "after"] = "before"
    retry_after: float | None = None
    body: dict[str, Any] | None = None
    headers: dict[str, str] = {}


class FaultConfig(BaseModel):
    """A faults file: the faults, and a seed that makes the random choices repeatable."""

    seed: int | None = None
    faults: list[Fault] = Field(default_factory=list)


class FaultInjector:
    """The faults in force: the delays of the matching faults that fire add up; the first
    error among them is the answer."""

    def __init__(self, faults: list[Fault] | None = None, seed: int | None = None) -> None:
        self.faults: list[Fault] = list(faults or [])
        self.seed = seed
        self._counts: dict[str, int] = {}

    @classmethod
    def from_file(cls, path: Path) -> "FaultInjector":
        """Faults from a faults file ({"seed", "faults": [...]}) or a seed file's "faults"."""
        data = json.loads(path.read_text())
        if isinstance(data.get("faults"), dict):
            data = data["faults"]
        config = FaultConfig(seed=data.get("seed"), faults=data.get("faults") or [])
        return cls(config.faults, config.seed)

    def _roll(self, fault_index: int, method: str, path: str) -> random.Random:
        """The random choices for one request."""
        # With a seed they depend only on the fault, the route and how many times the route was
        # hit, so concurrent requests on other routes do not change them.
        if self.seed is None:
            return random.Random()
        key = f"{fault_index} {method} {path}"
        self._counts[key] = self._counts.get(key, 0) + 1
        return random.Random(f"{self.seed} {key} {self._counts[key]}")

    def take(self, method: str, path: str) -> Hit | None:
        """What the faults do to this request, each fault that fires counted as used."""
        hit: Hit | None = None
        for index, fault in enumerate(self.faults):
            if not fault.matches(method, path):
                continue
            if hit and hit.status_code is not None and fault.status_code is not None:
                continue  # an earlier fault already decided the answer
            rng = self._roll(index, method, path)
            if rng.random() >= fault.rate:
                continue
            if fault.times is not None:
                fault.times -= 1
            hit = hit or Hit()
            high = fault.max_delay_seconds
            hit.delay_seconds += (
                rng.uniform(fault.delay_seconds, high) if high else fault.delay_seconds
            )
            if fault.status_code is not None:
                codes = fault.status_code
                hit.status_code = rng.choice(codes) if isinstance(codes, list) else codes
                hit.when, hit.retry_after = fault.when, fault.retry_after
                hit.body, hit.headers = fault.body, dict(fault.headers)
        return hit
