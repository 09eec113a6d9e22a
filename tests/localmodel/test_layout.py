"""What counts as installed, and the settings' choice of provider."""

from pathlib import Path

import pytest
from pydantic import SecretStr

from config import Settings
from localmodel.layout import Layout
from localmodel.provider import resolved_model_provider
from tests.localmodel.conftest import fake_install


def test_an_installed_model_is_recognised(installed: Layout) -> None:
    assert installed.installed()
    assert installed.server_binary is not None and installed.server_binary.name == "llama-server"


def test_weights_changed_after_verification_are_not_trusted(installed: Layout) -> None:
    installed.model_file.write_bytes(b"something else entirely")
    assert not installed.model_verified()
    assert not installed.installed()


def test_a_server_whose_library_links_are_not_made_is_not_ready(installed: Layout) -> None:
    assert installed.server_bin_dir is not None
    (installed.server_bin_dir / "_symlinks.json").write_text("{}")
    assert installed.server_binary is None


def test_parts_missing_mean_not_installed(tmp_path: Path) -> None:
    assert not fake_install(tmp_path / "a", server=False).installed()
    assert not fake_install(tmp_path / "b", model=False).installed()
    assert not Layout(tmp_path / "nothing").installed()


def test_a_model_file_named_in_the_settings_needs_no_stamp(tmp_path: Path) -> None:
    own = tmp_path / "other.gguf"
    own.write_bytes(b"weights")
    layout = fake_install(tmp_path / "models", model=False)
    assert Layout(layout.models_dir, own).installed()


@pytest.fixture
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "TICKETSMITH_OPENAI_API_KEY", "TICKETSMITH_MODEL_PROVIDER"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.usefixtures("no_key")
def test_provider_order_key_then_local_then_offline(installed: Layout, tmp_path: Path) -> None:
    with_key = Settings(models_dir=installed.models_dir, openai_api_key=SecretStr("sk-test"))
    assert resolved_model_provider(with_key) == "openai"
    assert resolved_model_provider(Settings(models_dir=installed.models_dir)) == "local"
    assert resolved_model_provider(Settings(models_dir=tmp_path / "empty")) == "offline"


@pytest.mark.usefixtures("no_key")
def test_an_explicit_provider_wins(installed: Layout) -> None:
    settings = Settings(models_dir=installed.models_dir, model_provider="offline")
    assert resolved_model_provider(settings) == "offline"
