"""The embedded Temporal server writes SQLite in WAL mode without an fsync per commit."""

from pathlib import Path

from embedded.stack import Stack
from harness.stacks import stack_settings


def test_the_server_writes_sqlite_with_wal_and_normal_sync(tmp_path: Path) -> None:
    temporal = next(s for s in Stack(stack_settings(tmp_path)).services if s.name == "temporal")
    argv = temporal.argv
    pragmas = [v for k, v in zip(argv, argv[1:], strict=False) if k == "--sqlite-pragma"]
    assert pragmas == ["journal_mode=wal", "synchronous=normal"]
