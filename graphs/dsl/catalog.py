"""The agents a graph definition can name: each is an activity of the same name.

Kept free of heavy imports so the command line can check a definition before starting it;
the implementations live in `activities/graph_agents.py` and `activities/mvp/agents.py`.
"""

from typing import NamedTuple


class AgentInfo(NamedTuple):
    """What an agent does and whether it calls the model (then it runs on the agent queue)."""

    description: str
    uses_model: bool


AGENTS: dict[str, AgentInfo] = {
    "analysis": AgentInfo("Study a repository at a branch: input `repo`, `ticket`.", True),
    "questions": AgentInfo("Clarifying questions on a ticket: `ticket`, `analysis`.", True),
    "requirements": AgentInfo(
        "Requirements from a ticket and answers: `ticket`, `analysis`, `questions`, `answers`.",
        True,
    ),
    "planning": AgentInfo(
        "An implementation plan: `ticket`, `analysis`, `requirements`, `feedback`.", True
    ),
    "implementation": AgentInfo(
        "Implement a plan on a branch (workers, tests, QA): `repo`, `ticket`, `plan`.", True
    ),
    "jira_fetch_ticket": AgentInfo("Read a Jira issue: `key`.", False),
    "jira_comment": AgentInfo("Comment on a Jira issue once: `key`, `body`.", False),
    "jira_transition": AgentInfo("Move a Jira issue: `key`, `status`.", False),
    "discord_notify": AgentInfo("Post to a project's Discord: `jira_project`, `content`.", False),
    "github_pull_request": AgentInfo(
        "Open a pull request (once per branch): `repository`, `head`, `base`, `title`, `body`.",
        False,
    ),
    "mvp_manager": AgentInfo("Is it a development request, and the MVP's plan: `prompt`.", True),
    "mvp_architect": AgentInfo("File plan and interface contracts: `prompt`, `manager`.", True),
    "mvp_swe_worker": AgentInfo(
        "Write one file: `prompt`, `manager`, `architect`, `file`, `project`, `qa`, `revision`.",
        True,
    ),
    "mvp_tester": AgentInfo(
        "Merge the workers' files and run the project's own tests: `written`, `project`.", False
    ),
    "mvp_qa": AgentInfo(
        "Review the project against the contracts and the request: `prompt`, `manager`,"
        " `architect`, `project`, `revision`.",
        True,
    ),
    "forge_publish": AgentInfo(
        "Push files to a repository of their own on the forge: `name`, `files`, `message`.", False
    ),
    # The research agents call the model briefly and mostly wait on the MCP tool server, so
    # they run on the service queue: five research runs at once would queue behind the
    # agent queue's small limit otherwise.
    "research_manager": AgentInfo(
        "Plan the research: tickets, documents, PDFs and searches for `question`.", False
    ),
    "jira_agent": AgentInfo("Read the planned Jira tickets and note findings: `plan`.", False),
    "doc_agent": AgentInfo("Read the planned markdown and HTML documents: `plan`.", False),
    "pdf_agent": AgentInfo("Read the planned PDFs page by page: `plan`.", False),
    "search_agent": AgentInfo("Search the web for the planned queries: `plan`.", False),
    "synthesis_agent": AgentInfo(
        "Write the cited report from the specialists' outputs and `question`.", False
    ),
}


def agent_queues(task_queue: str, agent_task_queue: str) -> dict[str, str]:
    """The task queue of every registered agent."""
    return {
        name: agent_task_queue if info.uses_model else task_queue for name, info in AGENTS.items()
    }
