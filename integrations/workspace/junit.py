"""Reading pytest's junit XML report: each test case, where it lives and how it ended."""

import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Literal

from pydantic import BaseModel

Outcome = Literal["passed", "failed", "error", "skipped"]


class CaseResult(BaseModel):
    """One test case of a run."""

    name: str
    classname: str
    file: str
    outcome: Outcome
    message: str = ""
    details: str = ""

    @property
    def test_id(self) -> str:
        """A pytest-like id: path::Class::name."""
        classes = [part for part in self.classname.split(".") if part[:1].isupper()]
        return "::".join([self.file or self.classname, *classes, self.name])


def case_file(classname: str, file: str) -> str:
    """The test file of a case: its `file` attribute, else derived from the dotted classname."""
    if file:
        return file
    parts = classname.split(".")
    while parts and parts[-1][:1].isupper():  # a test class, not a module
        parts.pop()
    return "/".join(parts) + ".py" if parts else ""


def parse_junit(xml_text: str) -> list[CaseResult]:
    """Every test case in a junit XML report (empty when the text is not such a report)."""
    try:
        root = ET.fromstring(xml_text)
    except ET.ParseError:
        return []
    cases: list[CaseResult] = []
    for case in root.iter("testcase"):
        outcome: Outcome = "passed"
        message = details = ""
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                outcome = "failed" if child.tag == "failure" else child.tag  # type: ignore[assignment]
                message = child.get("message", "")
                details = child.text or ""
                break
        classname = case.get("classname", "")
        cases.append(
            CaseResult(
                name=case.get("name", ""),
                classname=classname,
                file=case_file(classname, case.get("file", "")),
                outcome=outcome,
                message=message,
                details=details,
            )
        )
    return cases


def read_junit(path: Path) -> list[CaseResult]:
    """The cases of a report file; empty when it is missing."""
    return parse_junit(path.read_text(errors="replace")) if path.is_file() else []
