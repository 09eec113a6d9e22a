"""Settings of the MCP tool server the research agents call (python -m toolserver)."""

from pathlib import Path

from pydantic import Field, model_validator

from config.common import CommonSettings


class ToolServerAddress(CommonSettings):
    """Where the tool server listens and where its clients reach it."""

    toolserver_host: str = "127.0.0.1"
    toolserver_port: int = 8200
    # Where clients reach it ("" means http://toolserver_host:toolserver_port).
    toolserver_url: str = ""

    @model_validator(mode="after")
    def _toolserver_url(self) -> "ToolServerAddress":
        """Unset, clients reach the tool server on its host and port."""
        tools = f"http://{self.toolserver_host}:{self.toolserver_port}"
        self.toolserver_url = self.toolserver_url or tools
        return self


class ToolServerSettings(ToolServerAddress):
    """What the tool server serves and how it misbehaves on purpose."""

    # Documents get_doc serves (markdown, HTML, PDF); the demo corpus is seeded into an empty one.
    toolserver_docs_dir: Path | None = None
    toolserver_search_provider: str = "local"
    # The pages the local search provider indexes (JSON: [{url, title, text}]); None: the demo's.
    toolserver_search_corpus: Path | None = None
    # A fault profile (JSON) in force from the start; without one, every call waits 0-500 ms.
    toolserver_faults_file: Path | None = None
    toolserver_latency_min_seconds: float = Field(default=0.0, ge=0)
    toolserver_latency_max_seconds: float = Field(default=0.5, ge=0)
    toolserver_fault_seed: int | None = None

    @property
    def documents_dir(self) -> Path:
        """The tool server's document folder."""
        return self.toolserver_docs_dir or self.data_dir / "toolserver" / "docs"
