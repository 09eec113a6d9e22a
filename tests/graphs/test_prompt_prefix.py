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
    "shop/cart.py": "def total(prices):\n    return sum(prices)\n",
    "shop/tax.py": "RATE = 0.2\n\n\ndef with_tax(amount):\n    return amount * (1 + RATE)\n",
}


def states(repo: Path) -> list[WorkerState]:
    """Revision 1's worker states of a two-file plan."""
    for path, text in FILES.items():
        (repo / path).parent.mkdir(parents=True, exist_ok=True)
        (repo / path).write_text(text)
    files = [
        PlannedFile(path=p, action="modify", purpose=f"apply the discount in {p}") for p in FILES
    ]
    plan = Plan(
        version=1, summary="A 10% discount on carts over 100", files=files,
        test_plan=["python -m pytest -q"], risks=[], markdown="",
    )  # fmt: skip
    ticket = TicketContext(key="SHOP-1", summary="Discount", description="Carts over 100 get 10%.")
    requirements = Requirements(requirements=["10% off over 100"], acceptance_criteria=["total"])
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
    cart, tax = (sent(state) for state in states(tmp_path))
    shared = cart[: cart.index("Related code from the repository")]
    assert tax.startswith(shared) and len(shared) > len(cart) // 2
    assert "The reporter wrote:\nCarts over 100 get 10%." in shared  # not only the plan's words
    assert "Your file is `shop/tax.py`" in tax[len(shared) :]


def test_a_files_next_revision_differs_only_from_its_feedback_on(tmp_path: Path) -> None:
    cart = states(tmp_path)[0]
    first, second = sent(cart), sent(cart, revision=2, feedback="test_total failed: 100 != 90")
    shared = first[: first.index("Your file is `shop/cart.py`")]
    assert second.startswith(shared)
    assert "test_total failed" in second[len(shared) :]
    assert '"revision"' not in second  # the inputs block, which names it, is not sent


def reviewed(state: WorkerState, revision: int, content: str, output: str) -> str:
    """The review prompt of a revision that gave `shop/cart.py` this content."""
    review = ImplementationState(
        repo_dir=state["repo_dir"],
        ticket=state["ticket"],
        plan=state["plan"],
        requirements=state["requirements"],
        revision=revision,
        files={"shop/cart.py": FileChange(path="shop/cart.py", content=content)},
        tests=TestReport(passed=False, exit_code=1, output=output),
    )  # fmt: skip
    system, human = review_prompt(review)
    return f"{system}\n{human}"


def test_a_revisions_review_differs_from_the_last_only_from_the_diff_on(tmp_path: Path) -> None:
    cart = states(tmp_path)[0]
    first = reviewed(cart, 1, "def total(prices):\n    return sum(prices) * 0.9\n", "1 failed")
    second = reviewed(cart, 2, "def total(prices):\n    return 0.9 * sum(prices)\n", "2 failed")
    shared = first[: first.index('"changed_files"')]
    assert second.startswith(shared)
    assert "10% off over 100" in shared and "apply the discount in shop/tax.py" in shared
    assert "return 0.9 * sum(prices)" in second[len(shared) :]
