"""Project config: a bad file names the file and the field; an unknown project is clear."""

import os
from pathlib import Path

import pytest

from config import Settings
from tickets.launch import LaunchError, ticket_input
from tickets.projects import ProjectConfigError, load_projects, project_for


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "projects.toml"
    path.write_text(text)
    return path


def test_valid_file_maps_waits_and_budget(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[projects.CALC]\nrepository = "acme/calc"\nreminder_interval_hours = 2\n'
        "max_reminders = 1\nexpire_after_days = 0.5\ntoken_budget = 9000\n",
    )
    inp = ticket_input("CALC-7", Settings(projects_file=path, emulator_port=9999))
    assert inp.project.clone_url == "http://127.0.0.1:9999/acme/calc.git"
    assert inp.project.implement_after_approval is False
    assert inp.waits.reminder_interval.total_seconds() == 7200
    assert inp.waits.expire_after.total_seconds() == 43200
    assert inp.token_budget == 9000


def test_bad_field_names_file_and_field(tmp_path: Path) -> None:
    path = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\nmax_reminders = -1\n')
    with pytest.raises(ProjectConfigError) as bad:
        load_projects(path)
    assert str(path) in str(bad.value) and "projects.CALC.max_reminders" in str(bad.value)


def test_minutes_of_work_reach_the_ticket(tmp_path: Path) -> None:
    path = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\nwork_minutes = 15\n')
    assert ticket_input("CALC-7", Settings(projects_file=path)).work_minutes == 15
    plain = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\n')
    assert ticket_input("CALC-7", Settings(projects_file=plain)).work_minutes is None
    bad = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\nwork_minutes = -1\n')
    with pytest.raises(ProjectConfigError, match="projects.CALC.work_minutes"):
        load_projects(bad)


def test_a_cost_cap_in_dollars_reaches_the_ticket(tmp_path: Path) -> None:
    path = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\ncost_cap = 2.5\n')
    assert ticket_input("CALC-7", Settings(projects_file=path)).cost_cap == 2.5
    bad = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\ncost_cap = 0\n')
    with pytest.raises(ProjectConfigError, match="projects.CALC.cost_cap"):
        load_projects(bad)


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[projects.CALC]\nrepository = "acme/calc"\nimplment = true\n')
    with pytest.raises(ProjectConfigError, match="projects.CALC.implment"):
        load_projects(path)


def test_not_toml_says_so(tmp_path: Path) -> None:
    with pytest.raises(ProjectConfigError, match="not valid TOML"):
        load_projects(write(tmp_path, "[projects.CALC\n"))


def test_unknown_project_is_a_clear_error(tmp_path: Path) -> None:
    settings = Settings(projects_file=write(tmp_path, '[projects.CALC]\nrepository = "a/b"\n'))
    with pytest.raises(ProjectConfigError, match=r"Jira project FOO is not configured.*CALC"):
        project_for("FOO-1", settings)
    with pytest.raises(LaunchError, match="add a \\[projects.FOO\\] table"):
        ticket_input("FOO-1", settings)


def test_moving_the_emulator_port_moves_every_url_the_demo_uses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from config import ROOT
    from embedded.services import child_env
    from tickets.projects import clone_url_for, discord_webhook_for

    for name in list(os.environ):
        if name.startswith("TICKETSMITH_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TICKETSMITH_EMULATOR_PORT", "9123")
    settings = Settings(projects_file=ROOT / "projects.toml")
    demo = load_projects(settings.projects_file)["DEMO"]
    urls = {
        "jira": settings.jira_base_url,
        "github": settings.github_api_url,
        "git": settings.git_base_url,
        "clone": clone_url_for(demo, settings),
        "discord": discord_webhook_for(demo, settings) or "",
    }
    assert all(
        url.startswith("http://127.0.0.1:9123/") or url.endswith(":9123") for url in urls.values()
    ), urls
    assert urls["discord"] == "http://127.0.0.1:9123/api/webhooks/1000/demo-token"
    # Nothing the stack hands its services still names the default port.
    assert not [v for v in child_env(settings).values() if ":8100" in v]
    assert "http" not in (ROOT / "projects.toml").read_text(), "the shipped config names a host"


def test_an_absolute_discord_url_is_kept(tmp_path: Path) -> None:
    from tickets.projects import discord_webhook_for

    path = write(
        tmp_path,
        '[projects.CALC]\nrepository = "acme/calc"\n'
        'discord_webhook_url = "https://discord.com/api/webhooks/1/x"\n',
    )
    project = load_projects(path)["CALC"]
    assert discord_webhook_for(project, Settings()) == "https://discord.com/api/webhooks/1/x"


def test_every_process_of_the_stack_shares_one_payload_store(tmp_path: Path) -> None:
    from embedded.services import child_env

    settings = Settings(data_dir=tmp_path, payload_store_threshold_kib=64)
    assert settings.payload_store_path == tmp_path / "payloads"
    env = child_env(settings)
    assert env["TICKETSMITH_PAYLOAD_STORE_DIR"] == str(tmp_path / "payloads")
    assert env["TICKETSMITH_PAYLOAD_STORE_THRESHOLD_KIB"] == "64"
    assert Settings(payload_store_dir=tmp_path / "shared").payload_store_path == tmp_path / "shared"
