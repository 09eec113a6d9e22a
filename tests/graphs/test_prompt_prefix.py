"""The code writers' and the QA review's prompts share their beginning across files and
revisions, so a local server's prompt cache reads that part once."""

from pathlib import Path

from graphs.analysis.graph import index_repository
from graphs.implementation.review import review_prompt
from graphs.implementation.state import ImplementationState, WorkerState
from graphs.implementation.worker.prompt import worker_messages
from graphs.implementation.worker.window import choose_window
from graphs.schemas import FileChange, Plan, PlannedFile, Requirements, TestReport, TicketContext
from localmodel.chat import shown_messages

FILES = {
    "library/fines.py": "def fine(days):\n    return days * 0.5\n",
    "library/rates.py": "RATE = 0.5\n\n\ndef late_fee(days):\n    return days * RATE\n",
}


def states(repo: Path) -> list[WorkerState]:
    """Revision 1's worker states of a two-file plan."""
    for path, text in FILES.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    files = [PlannedFile(path=p, action="modify", purpose=f"halve the fine in {p}") for p in FILES]
    plan = Plan(
        version=1, summary="Half the fine for loans over 30 days", files=files,
        test_plan=["python -m pytest -q"], risks=[], markdown="",
    )  # fmt: skip
    ticket = TicketContext(key="LIB-1", summary="Fines", description="Long loans pay half.")
    requirements = Requirements(requirements=["half after 30 days"], acceptance_criteria=["fine"])
    index = index_repository(repo)
    return [
        WorkerState(
            repo_dir=repo,
            ticket=ticket,
            plan=plan,
            requirements=requirements,
            assignment={"file": planned, "context": []},
            index=index,
            revision=1,
            current=None,
            feedback="",
        )  # fmt: skip
        for planned in files
    ]


def sent(state: WorkerState, revision: int = 1, feedback: str = "") -> str:
    """The prompt's text as the local server receives it."""
    state = WorkerState(**state)
    state["revision"], state["feedback"] = revision, feedback
    current = (state["repo_dir"] / state["assignment"]["file"].path).read_text()
    messages = worker_messages(state, choose_window(current, feedback), current)
    return "\n".join(message.text for message in shown_messages(messages))


def test_two_files_of_a_revision_differ_only_from_the_related_code_on(tmp_path: Path) -> None:
    fines, rates = (sent(state) for state in states(tmp_path))
    shared = fines[: fines.index("Related code from the repository")]
    assert rates.startswith(shared) and len(shared) > len(fines) // 2
    assert "The reporter wrote:\nLong loans pay half." in shared  # not only the plan's words
    assert "Your file is `library/rates.py`" in rates[len(shared) :]


def test_a_files_next_revision_differs_only_from_its_feedback_on(tmp_path: Path) -> None:
    fines = states(tmp_path)[0]
    first, second = sent(fines), sent(fines, revision=2, feedback="test_fine failed: 20 != 10")
    shared = first[: first.index("Your file is `library/fines.py`")]
    assert second.startswith(shared)
    assert "test_fine failed" in second[len(shared) :]
    assert '"revision"' not in second  # the inputs block, which names it, is not sent


def reviewed(state: WorkerState, revision: int, content: str, output: str) -> str:
    """The review prompt of a revision that gave `library/fines.py` this content."""
    review = ImplementationState(
        repo_dir=state["repo_dir"],
        ticket=state["ticket"],
        plan=state["plan"],
        requirements=state["requirements"],
        revision=revision,
        files={"library/fines.py": FileChange(path="library/fines.py", content=content)},
        tests=TestReport(passed=False, exit_code=1, output=output),
    )  # fmt: skip
    system, human = review_prompt(review)
    return f"{system}\n{human}"


def test_a_revisions_review_differs_from_the_last_only_from_the_diff_on(tmp_path: Path) -> None:
    fines = states(tmp_path)[0]
    first = reviewed(fines, 1, "def fine(days):\n    return days * 0.25\n", "1 failed")
    second = reviewed(fines, 2, "def fine(days):\n    return 0.25 * days\n", "2 failed")
    shared = first[: first.index('"changed_files"')]
    assert second.startswith(shared)
    assert "half after 30 days" in shared and "halve the fine in library/rates.py" in shared
    assert "return 0.25 * days" in second[len(shared) :]
