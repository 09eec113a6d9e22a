"""A clarifying question: asked by the questions graph, shown by a ticket's status."""

from pydantic import BaseModel


class Question(BaseModel):
    """One clarifying question for the ticket's reporter."""

    text: str
    why: str
