"""Latency and errors the tool server injects per tool, seeded for repeatable runs.

A profile is JSON: `{"seed": 7, "faults": [{"tool": "fetch_ticket", "status_code": 500,
"rate": 0.3}, {"tool": ".*", "delay_seconds": 0, "max_delay_seconds": 0.5}]}`. The delays of
every matching fault that fires add up; the first error that fires is the answer.
"""

import json
import re
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError, model_validator

from faults.injector import Fault, FaultInjector, Hit

CALL = "CALL"  # the "method" under which tool calls are matched in the emulators' injector


class ToolFault(BaseModel):
    """Latency and/or an HTTP error for calls of the tools whose name matches `tool`."""

    tool: str = Field(default=".*", description="regular expression matched against the tool name")
    status_code: int | list[int] | None = Field(
        default=None, description="None: only delay; a list: one of them at random"
    )
    rate: float = Field(default=1.0, ge=0, le=1, description="share of matching calls hit")
    delay_seconds: float = Field(default=0.0, ge=0)
    max_delay_seconds: float | None = Field(
        default=None, description="set: the delay is uniform between delay_seconds and this"
    )
    retry_after: float | None = Field(default=None, ge=0)
    times: int | None = Field(default=None, ge=0, description="calls to hit; None: until cleared")

    @model_validator(mode="after")
    def _check(self) -> "ToolFault":
        try:
            re.compile(self.tool)
        except re.error as err:
            raise ValueError(f"tool is not a regular expression: {err}") from err
        if self.max_delay_seconds is not None and self.max_delay_seconds < self.delay_seconds:
            raise ValueError("max_delay_seconds must not be below delay_seconds")
        if isinstance(self.status_code, list) and not self.status_code:
            raise ValueError("status_code must not be an empty list")
        return self

    def as_fault(self) -> Fault:
        """The same fault in the emulators' injector's terms."""
        return Fault(
            path=self.tool, method=CALL, status_code=self.status_code, rate=self.rate,
            delay_seconds=self.delay_seconds, max_delay_seconds=self.max_delay_seconds,
            retry_after=self.retry_after, times=self.times,
        )  # fmt: skip


class FaultProfile(BaseModel):
    """A fault profile: the faults in force and the seed of their random choices."""

    model_config = {"extra": "forbid"}

    seed: int | None = None
    faults: list[ToolFault] = Field(default_factory=list)

    @classmethod
    def from_file(cls, path: Path) -> "FaultProfile":
        """A profile from a JSON file, with an error naming the file and the field."""
        try:
            return cls.model_validate_json(path.read_text())
        except FileNotFoundError as err:
            raise ValueError(f"fault profile {path} does not exist") from err
        except ValidationError as err:
            raise ValueError(f"fault profile {path}: {first_problem(err)}") from err


def first_problem(err: ValidationError) -> str:
    """The first problem of a profile as `field.path: message`."""
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "the profile"
    return f"{where}: {first['msg']}"


def default_profile(min_seconds: float = 0.0, max_seconds: float = 0.5) -> FaultProfile:
    """The nominal profile: every call waits a random 0-500 ms, as a real service might."""
    if max_seconds <= 0:
        return FaultProfile()
    latency = ToolFault(delay_seconds=min_seconds, max_delay_seconds=max_seconds)
    return FaultProfile(faults=[latency])


class ToolFaults:
    """The profile in force, replaceable at run time."""

    def __init__(self, profile: FaultProfile) -> None:
        self.profile = profile
        self._injector = self._build(profile)

    @staticmethod
    def _build(profile: FaultProfile) -> FaultInjector:
        return FaultInjector([f.as_fault() for f in profile.faults], profile.seed)

    def replace(self, profile: FaultProfile) -> None:
        """Put a new profile in force; its random choices start again from its seed."""
        self.profile = profile
        self._injector = self._build(profile)

    def current(self) -> FaultProfile:
        """The profile in force, with the calls each counted fault has left."""
        faults = [
            f.model_copy(update={"times": live.times})
            for f, live in zip(self.profile.faults, self._injector.faults, strict=True)
        ]
        return FaultProfile(seed=self.profile.seed, faults=faults)

    def take(self, tool: str) -> Hit | None:
        """What the faults do to one call of `tool`."""
        return self._injector.take(CALL, tool)


def profile_json(profile: FaultProfile) -> str:
    """A profile as the JSON a file holds."""
    return json.dumps(profile.model_dump(exclude_defaults=True), indent=1)
