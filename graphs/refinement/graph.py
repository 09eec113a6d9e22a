"""The refinement graph: clarifying questions for a ticket, then requirements from the answers."""

from langchain_core.language_models import BaseChatModel
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from graphs.refinement.nodes import (
    make_ask_questions,
    make_write_requirements,
    route_start,
    settled_questions,
)
from graphs.refinement.state import RefinementInput, RefinementState
from graphs.schemas import Analysis, Question, QuestionSet, Requirements, TicketContext


def build_refinement_graph(model: BaseChatModel) -> CompiledStateGraph:
    """Compile the refinement graph around a chat model."""
    builder = StateGraph(RefinementState, input_schema=RefinementInput)
    builder.add_node("ask_questions", make_ask_questions(model))
    builder.add_node("write_requirements", make_write_requirements(model))
    builder.add_conditional_edges(START, route_start, ["ask_questions", "write_requirements"])
    builder.add_edge("ask_questions", END)
    builder.add_edge("write_requirements", END)
    return builder.compile()


async def generate_questions(
    model: BaseChatModel, ticket: TicketContext, analysis: Analysis
) -> QuestionSet:
    """The questions the ticket leaves open; `clear` when there are none."""
    state = await build_refinement_graph(model).ainvoke(
        {
            "step": "questions",
            "ticket": ticket,
            "analysis": analysis,
            "questions": [],
            "answers": [],
        }
    )
    question_set: QuestionSet = state["question_set"]
    return question_set


async def refine_requirements(
    model: BaseChatModel,
    ticket: TicketContext,
    analysis: Analysis,
    questions: list[Question],
    answers: list[str],
    *,
    allow_followup: bool = True,
) -> Requirements:
    """Requirements from the ticket and the answers; or, when not `clear`, follow-up questions.

    The follow-up questions are at most three; with `allow_followup` False there are none and
    the requirements record what is still open as assumptions.
    """
    state = await build_refinement_graph(model).ainvoke(
        {
            "step": "requirements",
            "ticket": ticket,
            "analysis": analysis,
            "questions": questions,
            "answers": answers,
            "allow_followup": allow_followup,
        }
    )
    requirements: Requirements = state["requirements"]
    # The answers as written go on with the requirements: a small model's refinement drops
    # details (a constant's name, an error message's form) the change must still honour.
    given = [a.strip() for a in answers if a.strip()]
    settled = settled_questions(questions, answers)
    return requirements.model_copy(update={"answers": given, "answered_questions": settled})
