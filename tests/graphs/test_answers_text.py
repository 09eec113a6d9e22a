"""The reporter's answers as a worker reads them."""

from graphs.implementation.worker.prompt import answers_text
from graphs.schemas import Requirements


def test_an_answer_given_in_several_rounds_is_shown_once() -> None:
    answer = 'Keyword argument `unit`, default "km".'
    requirements = Requirements(
        requirements=[],
        acceptance_criteria=[],
        answers=[answer, f"{answer}\n", "A speed of 0 raises ValueError.", answer],
    )
    assert answers_text(requirements) == f"{answer}\n\nA speed of 0 raises ValueError."


def test_no_answers_say_so() -> None:
    assert answers_text(None) == "(none given)"
    assert (
        answers_text(Requirements(requirements=[], acceptance_criteria=[], answers=[]))
        == "(none given)"
    )
