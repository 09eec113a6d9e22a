"""docker-compose.yml, its env example and the Dockerfile, checked without a Docker engine."""

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from config import ROOT, Settings
from embedded.stack import SEARCH_ATTRIBUTES

COMPOSE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / "deploy" / "ticketsmith.env.example"
# They run to completion, then exit.
ONE_SHOT = {"temporal-schema", "temporal-setup", "starter"}
PAYLOAD_CLIENTS = ("worker", "webhooks", "codec", "starter")  # every service converting payloads


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    """The compose file, parsed (YAML anchors and merge keys resolved)."""
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


@pytest.fixture(scope="module")
def services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The services by name."""
    return compose["services"]


def setting_names() -> set[str]:
    """Every environment variable name Settings reads."""
    names = set()
    for name, info in Settings.model_fields.items():
        names.add(f"TICKETSMITH_{name.upper()}")
        alias = info.validation_alias
        names.update(getattr(alias, "choices", []) or ([alias] if isinstance(alias, str) else []))
    return names


def env_file_names(path: Path) -> set[str]:
    """Variable names set in an env file (comments skipped)."""
    lines = (line.strip() for line in path.read_text().splitlines())
    return {line.split("=", 1)[0] for line in lines if line and not line.startswith("#")}


def test_our_environment_names_are_settings(services: dict[str, dict[str, Any]]) -> None:
    known = setting_names()
    used = set(env_file_names(ENV_EXAMPLE))
    commented = re.findall(r"^# (TICKETSMITH_\w+)=", ENV_EXAMPLE.read_text(), re.MULTILINE)
    used.update(commented)
    for service in services.values():
        used.update(service.get("environment") or {})
    ours = {name for name in used if name.startswith("TICKETSMITH_")}
    assert len(ours) > 20
    assert ours - known == set(), "not settings in config/"


def test_ticketsmith_services_read_the_env_file(services: dict[str, dict[str, Any]]) -> None:
    for name in ("worker", "webhooks", "codec", "emulators", "toolserver", "starter"):
        files = services[name]["env_file"]
        assert {"path": "deploy/ticketsmith.env", "required": False} in files, name


def host_ports(service: dict[str, Any]) -> list[int]:
    """The host side of each published port."""
    ports = []
    for entry in service.get("ports", []):
        parts = str(entry).split(":")
        assert len(parts) in (2, 3), f"publish ports as [ADDRESS:]HOST:CONTAINER, not {entry}"
        ports.append(int(parts[-2]))
    return ports


def test_host_ports_do_not_clash(services: dict[str, dict[str, Any]]) -> None:
    published = [port for service in services.values() for port in host_ports(service)]
    assert len(published) == len(set(published))
    assert 7233 in published and 8080 in published


def test_our_search_attributes_are_created(services: dict[str, dict[str, Any]]) -> None:
    setup = services["temporal-setup"]
    created = setup["environment"]["SEARCH_ATTRIBUTES"].split()
    assert sorted(created) == sorted(SEARCH_ATTRIBUTES)
    script = ROOT / setup["entrypoint"][-1].replace("/deploy/", "deploy/")
    assert "search-attribute create" in script.read_text()
    assert "--type Keyword" in script.read_text()


def test_the_worker_keeps_no_state(services: dict[str, dict[str, Any]]) -> None:
    worker = services["worker"]
    store = worker["environment"]["TICKETSMITH_PAYLOAD_STORE_DIR"]
    for volume in worker.get("volumes", []):
        if volume == f"payloads:{store}":
            continue  # shared by every replica and client (next test), not the worker's own
        assert str(volume).endswith(":ro"), f"worker volume {volume} is writable state"
        assert str(volume).startswith("./"), f"worker volume {volume} is a named volume"
    assert "ports" not in worker, "published worker ports stop --scale worker=N"
    grace = float(worker["stop_grace_period"].rstrip("s"))
    assert grace > Settings.model_fields["graceful_shutdown_seconds"].default


def test_every_payload_client_shares_the_payload_store(
    services: dict[str, dict[str, Any]], compose: dict[str, Any]
) -> None:
    assert "payloads" in compose["volumes"]
    for name in PAYLOAD_CLIENTS:
        store = services[name]["environment"]["TICKETSMITH_PAYLOAD_STORE_DIR"]
        mounts = [str(v).removesuffix(":ro") for v in services[name]["volumes"]]
        assert f"payloads:{store}" in mounts, f"{name} does not mount the payload store"
    # The image creates the folder, so a new volume belongs to the user the services run as.
    assert store in (ROOT / "Dockerfile").read_text()


def test_health_checks_and_start_order(services: dict[str, dict[str, Any]]) -> None:
    for name, service in services.items():
        if name not in ONE_SHOT:
            assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
    assert services["temporal"]["depends_on"]["temporal-schema"]["condition"] == (
        "service_completed_successfully"
    )
    for name in ("worker", "webhooks"):
        condition = services[name]["depends_on"]["temporal-setup"]["condition"]
        assert condition == "service_completed_successfully"


def test_the_tool_server_is_reached_and_scraped(services: dict[str, dict[str, Any]]) -> None:
    toolserver = services["toolserver"]
    assert "8200:8200" in toolserver["ports"]
    assert toolserver["command"][:3] == ["python", "-m", "toolserver"]
    assert "/healthz" in " ".join(toolserver["healthcheck"]["test"])
    for name in ("worker", "toolserver"):
        url = services[name]["environment"]["TICKETSMITH_TOOLSERVER_URL"]
        assert url.endswith("http://toolserver:8200}"), (name, url)
    scrape = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in scrape["scrape_configs"]}
    assert jobs["ticketsmith-toolserver"]["static_configs"][0]["targets"] == ["toolserver:8200"]
    volume = toolserver["volumes"][0].split(":")
    assert volume[1] == "/var/lib/toolserver"
    assert toolserver["environment"]["TICKETSMITH_TOOLSERVER_DOCS_DIR"].startswith(volume[1])
    assert "/var/lib/toolserver" in (ROOT / "Dockerfile").read_text()


def test_images_are_pinned(services: dict[str, dict[str, Any]]) -> None:
    for name, service in services.items():
        image = service["image"]
        assert re.fullmatch(r"[\w./-]+:\d[\w.-]*|[\w./-]+:v\d[\w.-]*", image), f"{name}: {image}"
        assert "auto-setup" not in image
    ui = services["temporal-ui"]["environment"]
    assert ui["TEMPORAL_CODEC_ENDPOINT"].endswith(":8081")
    assert host_ports(services["codec"]) == [8081]


def test_scripts_and_config_files_exist(services: dict[str, dict[str, Any]]) -> None:
    for service in services.values():
        for volume in service.get("volumes", []):
            source = str(volume).split(":", 1)[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), source
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-[\w.-]+$", dockerfile, re.MULTILINE)
    assert 'CMD ["python", "worker.py"]' in dockerfile


def compose_command() -> list[str] | None:
    """`docker compose` or `docker-compose` at version 2 or later, when one is installed."""
    candidates = [["docker", "compose"], ["docker-compose"]]
    for command in candidates:
        if shutil.which(command[0]) is None:
            continue
        probe = subprocess.run(
            [*command, "version", "--short"], capture_output=True, text=True, timeout=30
        )
        # Compose 1.x predates the Compose Specification this file is written to.
        if probe.returncode == 0 and not probe.stdout.strip().lstrip("v").startswith("1."):
            return command
    return None


def test_docker_compose_accepts_it() -> None:
    command = compose_command()
    if command is None:
        pytest.skip("Docker Compose v2 (`docker compose` or `docker-compose` 2.x) is not installed")
    profiles = ["--profile", "trial", "--profile", "metrics", "--profile", "encryption"]
    done = subprocess.run(
        [*command, "-f", str(COMPOSE), *profiles, "config", "-q"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr


def test_a_deployment_passes_a_webhook_secret_and_opens_no_route_to_anyone(
    services: dict[str, dict[str, Any]],
) -> None:
    # The webhook app refuses to start without the secret: the env file asks for it.
    assert "TICKETSMITH_WEBHOOK_SECRET" in env_file_names(ENV_EXAMPLE)
    assert "secrets.token_hex(32)" in ENV_EXAMPLE.read_text()
    assert services["webhooks"]["command"][:3] == ["uvicorn", "--factory", "webhooks.app:serve"]
    for name in ("TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED", "TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED"):
        assert name not in env_file_names(ENV_EXAMPLE), f"{name} is on for every service"
    open_to_all = {
        name
        for name, service in services.items()
        for setting in (
            "TICKETSMITH_WEBHOOK_ALLOW_UNSIGNED",
            "TICKETSMITH_ADMIN_ALLOW_UNAUTHENTICATED",
        )
        if str((service.get("environment") or {}).get(setting, "")).lower() == "true"
    }
    # Only the codec, which the browser calls without a token, and only on the host's loopback.
    assert open_to_all == {"codec"}
    assert all(str(port).startswith("127.0.0.1:") for port in services["codec"]["ports"])
