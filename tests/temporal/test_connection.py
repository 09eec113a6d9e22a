"""Which Temporal settings win: ours when set, then Temporal's client configuration (TEMPORAL_*
variables, a temporal.toml profile), then the defaults; and what tells `status` to use gRPC."""

import os
from pathlib import Path

import pytest

from config import Settings
from embedded.services import child_env
from temporal import connection as temporal_connection
from temporal.connection import TemporalConfigError, TemporalConnection, connection
from temporal_settings import client_config_in_use, config_file, read


def settings_with(monkeypatch: pytest.MonkeyPatch, **variables: str) -> Settings:
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    return Settings(_env_file=None)  # type: ignore[call-arg]


def write_profile(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_nothing_set_is_plaintext_to_the_embedded_stack_over_http(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = settings_with(monkeypatch)
    assert client_config_in_use(os.environ) == ""
    assert settings.temporal_address == "127.0.0.1:7233"
    assert settings.temporal_http_url == "http://127.0.0.1:7243"
    plain = connection(settings.temporal_address, settings.temporal_namespace, True)
    assert (plain.tls, plain.api_key) == (False, None)


def test_ours_win_over_temporal_variables_which_win_over_the_profile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    write_profile(
        tmp_path / "config" / "temporalio" / "temporal.toml",
        '[profile.default]\naddress = "from-profile:7233"\nnamespace = "profile-ns"\n',
    )
    settings = settings_with(monkeypatch)
    assert (settings.temporal_address, settings.temporal_namespace) == (
        "from-profile:7233", "profile-ns",
    )  # fmt: skip
    settings = settings_with(monkeypatch, TEMPORAL_ADDRESS="from-variable:7233")
    assert (settings.temporal_address, settings.temporal_namespace) == (
        "from-variable:7233", "profile-ns",
    )  # fmt: skip
    settings = settings_with(
        monkeypatch, TICKETSMITH_TEMPORAL_ADDRESS="ours:7233", TICKETSMITH_TEMPORAL_NAMESPACE="ns"
    )
    assert (settings.temporal_address, settings.temporal_namespace) == ("ours:7233", "ns")
    assert settings.temporal_http_url == "off"


def test_status_list_and_watch_read_over_grpc_when_temporal_config_is_in_use(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    no_file = tmp_path / "missing.toml"
    assert read({"TEMPORAL_CONFIG_FILE": str(no_file)}).temporal_http_url != "off"
    assert read({"TEMPORAL_API_KEY": ""}).temporal_http_url != "off"  # empty is unset
    for name in ("TEMPORAL_API_KEY", "TEMPORAL_TLS", "TEMPORAL_TLS_CLIENT_CERT_PATH"):
        assert read({name: "x"}).temporal_http_url == "off", name
    assert read({"TEMPORAL_GRPC_META_X_TENANT": "a"}).temporal_http_url == "off"
    profile = write_profile(tmp_path / "t.toml", '[profile.cloud]\napi_key = "k"\n')
    assert client_config_in_use({"TEMPORAL_CONFIG_FILE": str(profile)}) == ""  # not `default`
    chosen = {"TEMPORAL_CONFIG_FILE": str(profile), "TEMPORAL_PROFILE": "cloud"}
    assert read(chosen).temporal_http_url == "off"
    monkeypatch.setenv("TEMPORAL_API_KEY", "x")
    assert settings_with(monkeypatch).temporal_http_url == "off"  # as config reads it
    off = {"TEMPORAL_API_KEY": "x", "TICKETSMITH_TEMPORAL_ENV_CONFIG": "false"}
    assert read(off, tmp_path / ".env").temporal_http_url == "http://127.0.0.1:7243"
    with pytest.raises(ValueError, match="TICKETSMITH_TEMPORAL_ENV_CONFIG is not true or false"):
        read({"TICKETSMITH_TEMPORAL_ENV_CONFIG": "maybe"}, tmp_path / ".env")


def test_the_default_profile_file_is_where_the_sdk_looks(tmp_path: Path) -> None:
    xdg = {"XDG_CONFIG_HOME": str(tmp_path), "HOME": "/home/x"}
    if os.name == "posix" and os.uname().sysname == "Linux":
        assert config_file(xdg) == tmp_path / "temporalio" / "temporal.toml"
        assert config_file({"HOME": "/home/x"}) == Path("/home/x/.config/temporalio/temporal.toml")
    assert config_file({"TEMPORAL_CONFIG_FILE": "/etc/t.toml"}) == Path("/etc/t.toml")


def test_the_embedded_stack_ignores_temporal_config(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings_with(monkeypatch, TEMPORAL_API_KEY="cloud-key", TEMPORAL_ADDRESS="c:7233")
    assert child_env(settings)["TICKETSMITH_TEMPORAL_ENV_CONFIG"] == "false"
    stack_settings = Settings(_env_file=None, temporal_env_config=False)  # type: ignore[call-arg]
    assert stack_settings.temporal_address == "127.0.0.1:7233"
    assert stack_settings.temporal_http_url == "http://127.0.0.1:7243"
    plain = connection(stack_settings.temporal_address, "default", env_config=False)
    assert (plain.tls, plain.api_key) == (False, None)


def test_a_profile_file_that_cannot_be_read_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    profile = write_profile(
        tmp_path / "t.toml",
        '[profile.default]\napi_key = "k"\n[profile.default.tls]\n'
        f'client_cert_path = "{tmp_path}/c.pem"\nclient_key_path = "{tmp_path}/k.pem"\n',
    )
    (tmp_path / "c.pem").write_text("cert")
    settings = settings_with(monkeypatch, TEMPORAL_CONFIG_FILE=str(profile))
    with pytest.raises(TemporalConfigError) as unreadable:
        connection(settings.temporal_address, "default", True)
    assert f"tls.client_key in profile 'default' of {profile} ({tmp_path}/k.pem)" in str(
        unreadable.value
    )
    monkeypatch.setenv("TEMPORAL_PROFILE", "nowhere")
    with pytest.raises(TemporalConfigError, match="Profile 'nowhere' not found"):
        connection(settings.temporal_address, "default", True)
    monkeypatch.setenv("TEMPORAL_CONFIG_FILE", str(write_profile(tmp_path / "bad.toml", "[x")))
    with pytest.raises(TemporalConfigError, match=r"bad\.toml"):
        connection(settings.temporal_address, "default", True)
    assert temporal_connection.secrets() == []  # nothing readable to redact


def test_switching_off_host_verification_is_refused_with_what_to_do_instead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TEMPORAL_TLS_DISABLE_HOST_VERIFICATION", "true")
    with pytest.raises(TemporalConfigError, match="set TEMPORAL_TLS_SERVER_NAME"):
        connection("c:7233", "default", True)


def test_grpc_metadata_and_an_api_key_from_the_profile(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    profile = write_profile(
        tmp_path / "t.toml",
        '[profile.default]\napi_key = "profile-key"\n[profile.default.grpc_meta]\nx-tenant = "a"\n',
    )
    monkeypatch.setenv("TEMPORAL_CONFIG_FILE", str(profile))
    secured = connection("c:7233", "ns", True)
    assert (secured.tls, secured.api_key, dict(secured.rpc_metadata)) == (
        True, "profile-key", {"x-tenant": "a"},
    )  # fmt: skip
    assert secured.named["api_key"].startswith("api_key in profile 'default'")
    assert "profile-key" not in repr(secured)
    assert temporal_connection.secrets() == ["profile-key"]


def test_a_refused_api_key_is_named_and_a_missing_server_is_left_as_it_is() -> None:
    # The SDK's words for a server refusing the key (no test server here checks keys).
    unauthorized = RuntimeError(
        "Failed client connect: `get_system_info` call error after connection: Status { code: "
        'Unauthenticated, message: "Request unauthorized." }'
    )
    keyed = TemporalConnection(
        "c:7233", "ns", tls=True, api_key="k", named={"api_key": "TEMPORAL_API_KEY"}
    )
    refusal = keyed.refused(unauthorized)
    assert refusal is not None
    assert (
        str(refusal)
        == "cannot connect to Temporal at c:7233: it refused the credentials: TEMPORAL_API_KEY"
    )
    down = RuntimeError(
        "Failed client connect: tcp connect error: Connection refused (os error 111)"
    )
    assert keyed.refused(down) is None  # the caller's "cannot reach Temporal" stands
    assert TemporalConnection("c:7233", "ns").refused(unauthorized) is None  # plaintext: not ours
