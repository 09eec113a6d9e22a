"""Whether a failed CI job is a flake worth a rerun or a failure of the change, told from its
conclusion, its log and its annotations before any model sees them.

The log is untrusted text: it is only matched against known shapes, and a verdict quotes at
most one short line of it. Failing tests are the change's, unless the runner, the network or a
test that passed on its rerun shows the job failed for reasons outside it.
"""

import re
from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, Field

from integrations.github.log_lines import clean_line

SCAN = 512 * 1024  # characters read from the end of a log
LINE = 2_000  # characters of one line matched
EVIDENCE = 160  # characters of a line a verdict quotes


class Flake(BaseModel):
    """The job failed for reasons outside the change: running it again may pass."""

    kind: Literal["flake"] = "flake"
    reason: str
    evidence: str = ""  # the line that shows it, cut short (untrusted text)


class Deterministic(BaseModel):
    """A failure of the change: a CI fix round takes it."""

    kind: Literal["deterministic"] = "deterministic"
    reason: str
    evidence: str = ""


CiVerdict = Annotated[Flake | Deterministic, Field(discriminator="kind")]

_CONCLUSIONS = {"cancelled": "the job was cancelled", "timed_out": "the job timed out"}
_RUNNER = (
    (re.compile(r"exceeded the maximum execution time", re.I), "the job timed out"),
    (re.compile(r"\bthe operation was cancell?ed\b", re.I), "the job was cancelled"),
    (
        re.compile(
            r"lost communication with the server|runner has received a shutdown signal"
            r"|was not acquired by runner|\brunner\b.{0,80}\b(?:did not respond|went offline)",
            re.I,
        ),
        "the runner failed",
    ),
)
_NETWORK = re.compile(
    r"could not resolve host|temporary failure in name resolution|name or service not known"
    r"|getaddrinfo \w*(?:ENOTFOUND|EAI_AGAIN)|\bECONNRESET\b|\bETIMEDOUT\b"
    r"|connection reset by peer|connection timed out|read timed out|TLS handshake timeout"
    r"|network is unreachable|the remote end hung up unexpectedly|\bRPC failed\b"
    r"|failed to connect to \S+ port \d+|unable to access '[^']*'"
    r"|\b50[234] (?:bad gateway|service unavailable|gateway time-?out)\b"
    r"|max retries exceeded with url|ReadTimeoutError|ConnectTimeoutError|\bi/o timeout\b"
    r"|npm ERR! network",
    re.I,
)
# A test that failed for good: pytest's summary, Go's and Jest's reports.
_FAILED_TEST = re.compile(r"^(?:FAILED|ERROR) \S+::\S+|^--- FAIL: \S+|^Tests:\s+\d+ failed\b")
# pytest's last line: `=== 1 failed, 4 passed, 2 rerun in 0.12s ===` (or without the rules).
_PYTEST_COUNTS = re.compile(r"^=*\s*((?:\d+ [a-z]+,? ?)+) in [\d.]+s\b")
_COUNT = re.compile(r"(\d+) ([a-z]+)")
# Maven Surefire: `Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Flakes: 1`.
_SUREFIRE = re.compile(r"Tests run: \d+, Failures: (\d+), Errors: (\d+)(?:.*Flakes: (\d+))?")
_RERUN_TEST = re.compile(r"^(\S+::\S+) RERUN\b|^RERUN (\S+::\S+)")
_ERROR = re.compile(r"^##\[error\]")


def classify(
    conclusion: str | None, log: str = "", annotations: Sequence[str] = ()
) -> Flake | Deterministic:
    """The verdict on one failed job (or check) from what CI said of it."""
    if conclusion in _CONCLUSIONS:
        return Flake(reason=_CONCLUSIONS[conclusion])
    lines = [clean_line(line)[:LINE] for line in log[-SCAN:].splitlines()]
    lines += [clean_line(note)[:LINE] for note in annotations]
    for pattern, reason in _RUNNER:
        if (line := _first(pattern, lines)) is not None:
            return Flake(reason=reason, evidence=_quoted(line))
    failed, flaky = _tests(lines)
    if failed is not None:
        return Deterministic(reason="tests failed", evidence=_quoted(failed))
    if flaky is not None:
        return Flake(reason="a test passed when it was rerun", evidence=_quoted(flaky))
    if (line := _first(_NETWORK, lines)) is not None:
        return Flake(reason="a network error", evidence=_quoted(line))
    error = _first(_ERROR, lines)
    return Deterministic(reason="the job failed", evidence=_quoted(error or ""))


def _tests(lines: list[str]) -> tuple[str | None, str | None]:
    """The first sign of a test that failed for good, and of one that passed on its rerun."""
    failed = _first(_FAILED_TEST, lines)
    flaky = None
    for line in lines:
        if failed is None and (counts := _PYTEST_COUNTS.match(line)):
            found = {word: int(n) for n, word in _COUNT.findall(counts[1])}
            if found.get("failed", 0) + found.get("error", 0) + found.get("errors", 0):
                failed = line
            elif found.get("rerun") and flaky is None:
                flaky = line
        if failed is None and (surefire := _SUREFIRE.search(line)):
            if int(surefire[1]) + int(surefire[2]):
                failed = line
            elif surefire[3] and int(surefire[3]) and flaky is None:
                flaky = line
        if flaky is None and (rerun := _RERUN_TEST.match(line)):
            flaky = rerun[1] or rerun[2]
    return failed, flaky


def _first(pattern: re.Pattern[str], lines: list[str]) -> str | None:
    return next((line for line in lines if pattern.search(line)), None)


def _quoted(line: str) -> str:
    """A line fit to quote in a comment: one line, no backticks, short."""
    text = " ".join(line.replace("`", "'").split())
    return text if len(text) <= EVIDENCE else text[: EVIDENCE - 3] + "..."
