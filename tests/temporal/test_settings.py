"""The settings `status`, `list` and `watch` read without pydantic are those `config` reads."""

import os
from pathlib import Path

import pytest

from cli.terminal import CommandError, temporal_endpoints
from config import Settings
from temporal_settings import TemporalSettings, read

NAMES = (
    "temporal_address",
    "temporal_namespace",
    "temporal_ui_url",
    "temporal_http_url",
    "status_query_seconds",
)


@pytest.fixture(autouse=True)
def no_settings_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith("TICKETSMITH_"):
            monkeypatch.delenv(name)


def as_config_reads(env_file: Path) -> tuple[object, ...]:
    settings = Settings(_env_file=env_file)  # type: ignore[call-arg]
    return tuple(getattr(settings, name) for name in NAMES)


def as_read(environ: dict[str, str], env_file: Path) -> tuple[object, ...]:
    settings = read(environ, env_file)
    return tuple(getattr(settings, name) for name in NAMES)


@pytest.mark.parametrize(
    ("environ", "dotenv"),
    [
        ({}, ""),
        ({"TICKETSMITH_TEMPORAL_ADDRESS": "10.0.0.5:7300"}, ""),
        ({"ticketsmith_temporal_http_port": "7999"}, "TICKETSMITH_TEMPORAL_UI_PORT=9000\n"),
        ({"TICKETSMITH_TEMPORAL_HTTP_URL": "off"}, "TICKETSMITH_STATUS_QUERY_SECONDS=2.5\n"),
        (
            {"TICKETSMITH_TEMPORAL_NAMESPACE": "from-env"},
            'TICKETSMITH_TEMPORAL_NAMESPACE="from-file"\nexport TICKETSMITH_TEMPORAL_UI_URL=http://ui\n',
        ),
    ],
)
def test_the_same_values_as_config(
    environ: dict[str, str], dotenv: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    if dotenv:
        env_file.write_text(dotenv)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert as_read(environ, env_file) == as_config_reads(env_file)


def test_defaults_are_configs_defaults() -> None:
    defaults = TemporalSettings()
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    for name in NAMES:
        assert getattr(defaults, name) == getattr(settings, name), name


def test_a_value_that_is_not_a_number_is_an_error_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(ValueError, match="TICKETSMITH_STATUS_QUERY_SECONDS is not a number"):
        read({"TICKETSMITH_STATUS_QUERY_SECONDS": "soon"}, tmp_path / ".env")
    with pytest.raises(ValueError, match="TICKETSMITH_TEMPORAL_HTTP_PORT must be above 0"):
        read({"TICKETSMITH_TEMPORAL_HTTP_PORT": "0"}, tmp_path / ".env")
    monkeypatch.setenv("TICKETSMITH_TEMPORAL_UI_PORT", "eighty")
    with pytest.raises(CommandError, match="TICKETSMITH_TEMPORAL_UI_PORT is not a number"):
        temporal_endpoints()
