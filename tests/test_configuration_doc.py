"""docs/running/configuration.md documents every variable the settings read, in one table row
each, under the process that reads it, and names no variable that is not read."""

import importlib
import inspect
import re

import pytest
from pydantic import AliasChoices, ValidationError
from pydantic_settings import BaseSettings

import temporal_settings
from config import (
    ROOT,
    CodecServerSettings,
    CommandLineSettings,
    EmulatorProcessSettings,
    Settings,
    ToolServerProcessSettings,
    WebhookAppSettings,
    WorkerSettings,
)
from tests.test_import_graph import product_modules

DOC = ROOT / "docs" / "running" / "configuration.md"
# Variables read without the settings classes, and the module that reads each.
OUTSIDE_THE_SETTINGS = {"TICKETSMITH_BENCH_SOURCES": "bench/quality/realcode/sources.py"}
# A documented variable: a table row that starts with it (`| `NAME` |`, or `NAME` or `OTHER`).
ROW = re.compile(r"^\|\s*((?:`[A-Z][A-Z0-9_]*`(?: or )?)+)\s*\|", re.MULTILINE)
NAMED = re.compile(r"\b(?:TICKETSMITH|TEMPORAL)_[A-Z0-9_]*")
SECTION = re.compile(r"^## (.+)$", re.MULTILINE)
# The page's sections by process, and the settings each of those processes reads. "Every
# process" names its readers row by row, and the benches' section holds what no class reads.
READERS: dict[str, tuple[type[BaseSettings], ...]] = {
    "Jira, GitHub and Discord": (WorkerSettings, WebhookAppSettings, CommandLineSettings),
    "The worker": (WorkerSettings,),
    "The webhook app": (WebhookAppSettings,),
    "The command line": (CommandLineSettings,),
    "The emulators": (EmulatorProcessSettings,),
    "The tool server": (ToolServerProcessSettings,),
    "The codec server and the admin routes": (CodecServerSettings,),
    "The embedded stack": (Settings,),
}


def settings_classes() -> list[type[BaseSettings]]:
    """Every pydantic-settings class the product defines."""
    found = []
    for name, path in product_modules().items():
        if "Settings" not in path.read_text(encoding="utf-8"):
            continue  # importing every module of the product would take long
        module = importlib.import_module(name)
        for _, member in inspect.getmembers(module, inspect.isclass):
            if issubclass(member, BaseSettings) and member.__module__ == name:
                found.append(member)
    return found


def variables_of(settings: type[BaseSettings]) -> set[str]:
    """The environment variables a settings class reads: its prefix and each field's name, or
    the field's aliases."""
    prefix = settings.model_config.get("env_prefix", "")
    names = set()
    for field_name, field in settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices):
            names |= {choice for choice in alias.choices if isinstance(choice, str)}
        elif isinstance(alias, str):
            names.add(alias)
        else:
            names.add(f"{prefix}{field_name}")
    return {name.upper() for name in names}


def read_variables() -> set[str]:
    """Every variable a process of ticketsmith reads: the settings', Temporal's own and the few
    read apart."""
    ours = set().union(*(variables_of(settings) for settings in settings_classes()))
    temporals = {*temporal_settings.CLIENT_VARIABLES, "TEMPORAL_CONFIG_FILE"}
    return ours | temporals | set(OUTSIDE_THE_SETTINGS)


def documented(text: str) -> list[str]:
    """The variables the page's table rows document, in order (a name twice is there twice)."""
    return [name for cell in ROW.findall(text) for name in re.findall(r"`([A-Z0-9_]+)`", cell)]


def unknown_names(text: str, known: set[str]) -> set[str]:
    """The variables the page names anywhere that nothing reads; `PREFIX_*` must start one."""
    names = set()
    for name in NAMED.findall(text):
        if name.endswith("_"):  # a family, written `TICKETSMITH_GITHUB_APP_*` or `_DATA`
            if name != temporal_settings.META_PREFIX and not any(k.startswith(name) for k in known):
                names.add(f"{name}*")
        elif name not in known:
            names.add(name)
    return names


def sections(text: str) -> dict[str, str]:
    """The page's `##` sections by heading, each with its text up to the next one."""
    parts = SECTION.split(text)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_the_settings_classes_are_found() -> None:
    variables = read_variables()
    assert {"TICKETSMITH_TEMPORAL_ADDRESS", "OPENAI_API_KEY", "TEMPORAL_API_KEY"} <= variables
    assert "TICKETSMITH_OPENAI_API_KEY" in variables  # both names of an aliased field


def test_every_variable_read_is_documented_once() -> None:
    rows = documented(DOC.read_text(encoding="utf-8"))
    missing = sorted(read_variables() - set(rows))
    twice = sorted({name for name in rows if rows.count(name) > 1})
    where = f"{DOC.relative_to(ROOT)}: a table row `| `NAME` | default | what it does |`"
    assert missing == [], f"add a row for each to {where}: {missing}"
    assert twice == [], f"document each once in {where}, under the process that reads it: {twice}"


def test_each_variable_is_under_a_process_that_reads_it() -> None:
    found = sections(DOC.read_text(encoding="utf-8"))
    assert set(READERS) <= set(found), f"sections missing: {sorted(set(READERS) - set(found))}"
    wrong = [
        f"{name} under '{heading}', which {reader.__name__} does not read"
        for heading, readers in READERS.items()
        for name in documented(found[heading])
        for reader in readers
        if name not in variables_of(reader)
    ]
    assert wrong == [], f"move each to the section of a process that reads it: {wrong}"


def test_a_process_reads_only_its_own_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TICKETSMITH_SANDBOX_MEMORY_MB", "lots")
    monkeypatch.setenv("TICKETSMITH_WEBHOOK_PORT", "not-a-port")
    assert WebhookAppSettings.model_fields.keys().isdisjoint({"sandbox_memory_mb", "openai_model"})
    with pytest.raises(ValidationError, match="webhook_port"):
        WebhookAppSettings()
    with pytest.raises(ValidationError, match="sandbox_memory_mb"):
        WorkerSettings()
    monkeypatch.delenv("TICKETSMITH_WEBHOOK_PORT")
    assert WebhookAppSettings().webhook_port == 8000  # the worker's bad value is not its concern
    assert CommandLineSettings().task_queue == "ticketsmith"


def test_every_setting_is_read_by_some_process() -> None:
    processes = (
        WorkerSettings, WebhookAppSettings, CommandLineSettings, EmulatorProcessSettings,
        ToolServerProcessSettings, CodecServerSettings,
    )  # fmt: skip
    read = set().union(*(cls.model_fields for cls in processes))
    assert set(Settings.model_fields) - read == {"ready_timeout_seconds"}  # the stack's own


def test_the_page_names_no_variable_that_is_not_read() -> None:
    extra = sorted(unknown_names(DOC.read_text(encoding="utf-8"), read_variables()))
    assert extra == [], f"not read by any process: take them out of {DOC.relative_to(ROOT)}"


def test_the_variables_read_apart_are_still_read_there() -> None:
    for name, path in OUTSIDE_THE_SETTINGS.items():
        assert name in (ROOT / path).read_text(encoding="utf-8"), f"{path} reads {name} no more"


def test_a_missing_or_stale_variable_is_caught() -> None:
    page = "| `TICKETSMITH_A` or `A` | 1 | x |\n| `TICKETSMITH_A` | 2 | y |\nsee TICKETSMITH_GONE\n"
    assert documented(page) == ["TICKETSMITH_A", "A", "TICKETSMITH_A"]
    known = {"TICKETSMITH_A", "A", "TICKETSMITH_B_C"}
    assert unknown_names(page + "TICKETSMITH_B_* TICKETSMITH_X_*", known) == {
        "TICKETSMITH_GONE",
        "TICKETSMITH_X_*",
    }
