"""A plan does not list, as a risk, a question the reporter's answers settled."""

import json

from graphs.models import ScriptedChatModel
from graphs.planning import create_plan
from graphs.planning.settled import repeats
from graphs.refinement import refine_requirements
from graphs.refinement.nodes import settled_questions
from graphs.schemas import Analysis, Question, TicketContext

NEGATIVE = "Should a negative exponent return a float or raise an error?"
NAME = "What should the CLI command be called?"
REQUIREMENTS = json.dumps(
    {"requirements": ["power(base, exponent)"], "acceptance_criteria": ["power(2, 3) is 8"]}
)
PLAN = json.dumps(
    {
        "summary": "Add power next to the other operations.",
        "files": [{"path": "calc/ops.py", "action": "modify", "purpose": "Add power."}],
        "test_plan": ["Run the tests."],
        "risks": [
            "It is unclear whether negative exponents should return floats or raise errors.",
            "Large exponents may overflow.",
            "The CLI command must parse two numbers and reject other input.",
        ],
    }
)


def asked(*texts: str) -> list[Question]:
    return [Question(text=t, why="It decides the code.") for t in texts]


async def test_a_risk_repeating_an_answered_question_leaves_the_plan(
    ticket: TicketContext, analysis: Analysis
) -> None:
    model = ScriptedChatModel([REQUIREMENTS, PLAN])
    questions = asked(NEGATIVE, NAME)
    requirements = await refine_requirements(model, ticket, analysis, questions, ["Floats.", "pow"])
    assert requirements.answered_questions == [NEGATIVE, NAME]

    plan = await create_plan(model, ticket, analysis, requirements, [], 1)
    assert plan.risks == [
        "Large exponents may overflow.",
        "The CLI command must parse two numbers and reject other input.",
    ]
    assert "unclear whether negative" not in plan.markdown


async def test_a_question_left_open_stays_a_risk(ticket: TicketContext, analysis: Analysis) -> None:
    model = ScriptedChatModel([REQUIREMENTS, PLAN])
    requirements = await refine_requirements(
        model, ticket, analysis, asked(NEGATIVE, NAME), ["Not sure yet.", "pow"],
        allow_followup=False,
    )  # fmt: skip
    assert requirements.answered_questions == [NAME]

    plan = await create_plan(model, ticket, analysis, requirements, [], 1)
    assert plan.risks[0].startswith("It is unclear whether negative exponents")


def test_which_questions_the_answers_settle() -> None:
    questions = asked(NEGATIVE, NAME)
    assert settled_questions(questions, []) == []
    assert settled_questions(questions, ["Floats; call it pow."]) == [NEGATIVE, NAME]
    assert settled_questions(questions, ["Floats, I think? And pow."]) == []
    assert settled_questions(questions, ["TBD", "pow"]) == [NAME]


def test_what_repeats_a_question() -> None:
    assert repeats("Negative exponents may return floats instead of raising errors.", NEGATIVE)
    assert repeats("The name of the CLI command is not decided.", NAME)
    assert not repeats("Large exponents may overflow.", NEGATIVE)
    assert not repeats("Negative numbers in the CLI need quoting on some shells.", NEGATIVE)
