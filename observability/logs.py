"""Logging set-up: structlog, readable on a terminal, JSON elsewhere, with ticket context.

Lines logged inside a workflow or an activity carry `workflow_id`, `ticket_key` and,
where known, `phase`; configured secret values are replaced before anything is written.
"""

import logging
import re
import sys
from collections.abc import Iterable

import structlog
from pydantic import BaseModel, SecretStr
from structlog.typing import EventDict, Processor, WrappedLogger
from temporalio import activity, workflow
from temporalio.common import SearchAttributeKey

PHASE = SearchAttributeKey.for_keyword("Phase")
# ticket-KEY and its children (ticket-KEY-implementation): KEY is a Jira key like PROJ-12.
TICKET_WORKFLOW = re.compile(r"ticket-([A-Z][A-Z0-9_]*-\d+)")
REDACTED = "[redacted]"


def temporal_context(_: WrappedLogger, __: str, event_dict: EventDict) -> EventDict:
    """Add the workflow id, ticket key and phase of the workflow or activity logging."""
    workflow_id = None
    if activity.in_activity():
        info = activity.info()
        workflow_id = info.workflow_id
        event_dict.setdefault("activity", info.activity_type)
        event_dict.setdefault("attempt", info.attempt)
    elif workflow.in_workflow():
        winfo = workflow.info()
        workflow_id = winfo.workflow_id
        phase = winfo.typed_search_attributes.get(PHASE)
        if phase:
            event_dict.setdefault("phase", phase)
    if workflow_id:
        event_dict.setdefault("workflow_id", workflow_id)
        ticket = TICKET_WORKFLOW.match(workflow_id)
        if ticket:
            event_dict.setdefault("ticket_key", ticket.group(1))
    if event_dict.get("phase") is None:
        event_dict.pop("phase", None)
    return event_dict


def redactor(secrets: Iterable[str]) -> Processor:
    """A processor replacing each secret value (of 4+ characters) in every string field."""
    values = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def redact(_: WrappedLogger, __: str, event_dict: EventDict) -> EventDict:
        for key, value in event_dict.items():
            if isinstance(value, str):
                for secret in values:
                    value = value.replace(secret, REDACTED)
                event_dict[key] = value
        return event_dict

    return redact


def configure_logging(level: int = logging.INFO, secrets: Iterable[str] = ()) -> None:
    """Route stdlib and structlog output through one renderer."""
    renderer: Processor = (
        structlog.dev.ConsoleRenderer()
        if sys.stderr.isatty()
        else structlog.processors.JSONRenderer()
    )
    shared: list[Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso"),
        temporal_context,
    ]
    structlog.configure(
        processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        cache_logger_on_first_use=True,
    )
    handler = logging.StreamHandler()
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=shared,
            processors=[
                structlog.stdlib.ProcessorFormatter.remove_processors_meta,
                structlog.processors.format_exc_info,
                redactor(secrets),
                renderer,
            ],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        # uvicorn sets up its own plain handlers; its lines go through the same renderer.
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    # The fields above carry the Temporal context; keep messages short.
    activity.logger.activity_info_on_message = False
    workflow.logger.workflow_info_on_message = False


def secret_values(settings: BaseModel) -> list[str]:
    """Every secret in the settings, so the logs can redact it."""
    return [
        value.get_secret_value()
        for value in settings.model_dump().values()
        if isinstance(value, SecretStr)
    ]
