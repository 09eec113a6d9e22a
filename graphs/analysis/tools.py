"""The `context_query` tool: ranked code retrieval over the analysis index, for every graph."""

import re
from collections.abc import Sequence

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from graphs.analysis.index import CodeIndex, Snippet
from llm.fences import fence
from llm.structured import trim

CONTEXT_QUERY = "context_query"
FIND_DEFINITION = "find_definition"
MAX_SNIPPETS = 8
RESULT_CHARS = 3000
_SNIPPET_HEADER = re.compile(r"^(\S+) \(lines \d+-\d+\)\n`{3,}", re.MULTILINE)


class ContextQueryArgs(BaseModel):
    """The arguments of a context query."""

    query: str = Field(description="Words to look for: names of functions, classes, files, terms")
    limit: int = Field(default=4, ge=1, le=MAX_SNIPPETS, description="How many snippets")


def format_snippets(snippets: list[Snippet], max_chars: int = RESULT_CHARS) -> str:
    """Snippets as fenced blocks headed by path and lines, within a character budget."""
    if not snippets:
        return "No code in the repository matches the query."
    share = max(200, max_chars // len(snippets))
    blocks = [
        fence(f"{s.path} (lines {s.start_line}-{s.end_line})", trim(s.text, share))
        for s in snippets
    ]
    return "\n\n".join(blocks)


def snippet_paths(text: str) -> list[str]:
    """The paths of a `context_query` result's snippets, best first, each once."""
    return list(dict.fromkeys(_SNIPPET_HEADER.findall(text)))


def make_context_query_tool(index: CodeIndex, max_chars: int = RESULT_CHARS) -> BaseTool:
    """A LangChain tool answering a query with the best-ranked code of the repository."""

    def context_query(query: str, limit: int = 4) -> str:
        return format_snippets(index.context_query(query, k=min(limit, MAX_SNIPPETS)), max_chars)

    return StructuredTool.from_function(
        func=context_query,
        name=CONTEXT_QUERY,
        description=(
            "Search the repository's code. Returns the snippets that best match the query, "
            "best first, each headed by its path and line numbers."
        ),
        args_schema=ContextQueryArgs,
    )


class FindDefinitionArgs(BaseModel):
    """The arguments of a definition lookup."""

    name: str = Field(description="The exact name of a function, class or type")


def make_find_definition_tool(index: CodeIndex) -> BaseTool:
    """A LangChain tool naming the files that define a name, one per line."""

    def find_definition(name: str) -> str:
        paths = index.defining(name.strip())
        return "\n".join(paths) if paths else f"No file of the repository defines `{name}`."

    return StructuredTool.from_function(
        func=find_definition,
        name=FIND_DEFINITION,
        description="The files of the repository that define a function, class or type of "
        "exactly this name, one path per line.",
        args_schema=FindDefinitionArgs,
    )


def find_tool(tools: Sequence[BaseTool], name: str) -> BaseTool | None:
    """The tool with this name, if given."""
    return next((t for t in tools if t.name == name), None)
