"""The ticket team's activities as graph agents: each takes an AgentCall, returns an AgentResult.

An agent's input (the call's `input` and `params` together) is validated against the input
model of the activity it wraps; input that does not fit fails at once, naming the fields.
"""

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from temporalio import activity
from temporalio.exceptions import ApplicationError

from activities.agents import AgentActivities
from activities.code_host import CodeHostActivities
from activities.discord import DiscordActivities
from activities.messages import (
    AnalyseInput,
    DiscordNoticeInput,
    FetchTicketInput,
    ImplementInput,
    OpenPullRequestInput,
    PlanInput,
    PostCommentInput,
    QuestionsInput,
    RequirementsInput,
    TransitionInput,
)
from activities.tracker import TrackerActivities
from graphs.dsl.calls import AgentCall, AgentResult

Activity = Callable[..., Awaitable[Any]]
M = TypeVar("M", bound=BaseModel)


def agent_input(name: str, model: type[M], call: AgentCall) -> M:
    """The call's input and params as the model, or a non-retryable error naming the fields."""
    values = {**call.input, **call.params}
    if "marker" in model.model_fields and not values.get("marker"):
        values["marker"] = call.idempotency_key
    try:
        return model.model_validate(values)
    except ValidationError as err:
        fields = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in err.errors())
        raise ApplicationError(
            f"agent {name} in step {call.step}: its input does not fit: {fields}",
            type="AgentInputError",
            non_retryable=True,
        ) from None


def as_agent(name: str, model: type[BaseModel], method: Activity) -> Activity:
    """An activity named `name` running `method` on the call's input."""

    async def run(call: AgentCall) -> AgentResult:
        result = await method(agent_input(name, model, call))
        output = result.model_dump(mode="json") if isinstance(result, BaseModel) else result
        return AgentResult(output=output, tokens=int(getattr(result, "tokens", 0) or 0))

    run.__name__ = run.__qualname__ = name  # as logs and worker listings show it
    return activity.defn(name=name)(run)


def team_agents(
    agents: AgentActivities,
    tracker: TrackerActivities,
    github: CodeHostActivities,
    discord: DiscordActivities,
) -> tuple[list[Activity], list[Activity]]:
    """(service agents, model agents) wrapping the ticket workflow's activities."""
    services = [
        as_agent("jira_fetch_ticket", FetchTicketInput, tracker.fetch_ticket),
        as_agent("jira_comment", PostCommentInput, tracker.post_comment),
        as_agent("jira_transition", TransitionInput, tracker.transition_issue),
        as_agent("discord_notify", DiscordNoticeInput, discord.notify_discord),
        as_agent("github_pull_request", OpenPullRequestInput, github.open_pull_request),
    ]
    models = [
        as_agent("analysis", AnalyseInput, agents.analyse_codebase),
        as_agent("questions", QuestionsInput, agents.generate_questions),
        as_agent("requirements", RequirementsInput, agents.refine_requirements),
        as_agent("planning", PlanInput, agents.generate_plan),
        as_agent("implementation", ImplementInput, agents.implement_changes),
    ]
    return services, models
