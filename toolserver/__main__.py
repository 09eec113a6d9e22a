"""Run the tool server: `python -m toolserver --port 8200` (MCP at /mcp, metrics at /metrics)."""

import argparse
import logging
from pathlib import Path

import uvicorn
from starlette.applications import Starlette

from access.admin import AdminAccess
from config import ToolServerProcessSettings, get_settings
from observability.logs import configure_logging
from observability.tracing import configure_tracing
from toolserver.app import JiraAccess, create_app
from toolserver.documents import seed_documents
from toolserver.faults import FaultProfile, default_profile
from toolserver.search import make_search_provider


def startup_profile(settings: ToolServerProcessSettings, faults_file: Path | None) -> FaultProfile:
    """The faults in force at start: a profile file, else the configured latency."""
    if faults_file is not None:
        return FaultProfile.from_file(faults_file)
    profile = default_profile(
        settings.toolserver_latency_min_seconds, settings.toolserver_latency_max_seconds
    )
    return profile.model_copy(update={"seed": settings.toolserver_fault_seed})


def build_app(settings: ToolServerProcessSettings, faults_file: Path | None = None) -> Starlette:
    """The tool server for these settings, its document folder seeded when empty."""
    seed_documents(settings.documents_dir)
    jira = JiraAccess(
        settings.jira_base_url,
        settings.jira_email,
        settings.jira_token.get_secret_value(),
        settings.jira_api_version,
    )
    search = make_search_provider(
        settings.toolserver_search_provider, settings.toolserver_search_corpus
    )
    profile = startup_profile(settings, faults_file or settings.toolserver_faults_file)
    admin = AdminAccess.from_settings(settings)
    docs = settings.documents_dir
    return create_app(jira, docs, search, profile, settings.toolserver_url, admin)


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    settings = get_settings(ToolServerProcessSettings)
    parser = argparse.ArgumentParser(prog="python -m toolserver", description=__doc__)
    parser.add_argument("--host", default=settings.toolserver_host)
    parser.add_argument("--port", type=int, default=settings.toolserver_port)
    parser.add_argument("--faults", type=Path, default=None, help="fault profile (JSON)")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    configure_logging()
    if settings.otel_endpoint:
        configure_tracing(settings.otel_endpoint, f"{settings.otel_service_name}-toolserver")
    try:
        app = build_app(settings, args.faults)
    except ValueError as err:
        parser.error(str(err))
    if notice := AdminAccess.from_settings(settings).start_notice(args.host):
        logging.getLogger("ticketsmith.toolserver").warning("%s", notice)
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    main()
