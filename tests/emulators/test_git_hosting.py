"""Git smart-HTTP hosting: the real git CLI clones from and pushes to the router over HTTP."""

import gzip
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from emulators.git_hosting import (
    SEED_REPOS_DIR,
    create_git_router,
    ensure_seed_repository,
    repository_path,
)
from harness.serving import serve

CALC_SOURCE = SEED_REPOS_DIR / "calc"


def git(*args: str, cwd: Path | None = None) -> str:
    """Run the git CLI isolated from any user configuration."""
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(cwd or Path.cwd()),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_AUTHOR_NAME": "Tester",
        "GIT_AUTHOR_EMAIL": "tester@example.com",
        "GIT_COMMITTER_NAME": "Tester",
        "GIT_COMMITTER_EMAIL": "tester@example.com",
    }
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)} failed: {done.stderr}")
    return done.stdout.strip()


@pytest.fixture
def repos_root(tmp_path: Path) -> Path:
    root = tmp_path / "repos"
    ensure_seed_repository(root, "demo", "calc", CALC_SOURCE)
    return root


@pytest.fixture
def base_url(repos_root: Path) -> Iterator[str]:
    app = FastAPI()
    app.include_router(create_git_router(repos_root))
    with serve(app) as url:
        yield url


@pytest.mark.parametrize("protocol", ["0", "2"])
def test_clone_push_and_clone_again(base_url: str, tmp_path: Path, protocol: str) -> None:
    url = f"{base_url}/demo/calc.git"
    first = tmp_path / "first"
    git("-c", f"protocol.version={protocol}", "clone", "--quiet", url, str(first), cwd=tmp_path)
    assert (first / "calc" / "operations.py").is_file()
    assert git("log", "-1", "--format=%an <%ae>", cwd=first) == (
        "Demo Maintainer <maintainer@example.com>"
    )

    (first / "NOTES.md").write_text("pushed over http\n")
    git("add", "NOTES.md", cwd=first)
    git("commit", "--quiet", "-m", "Add notes", cwd=first)
    git(
        "-c", f"protocol.version={protocol}",
        "-c", "http.extraHeader=Authorization: Basic eC1hY2Nlc3MtdG9rZW46YW55",
        "push", "--quiet", "origin", "HEAD:refs/heads/main",
        cwd=first,
    )  # fmt: skip

    second = tmp_path / "second"
    git("clone", "--quiet", url, str(second), cwd=tmp_path)
    assert (second / "NOTES.md").read_text() == "pushed over http\n"
    assert git("rev-parse", "HEAD", cwd=second) == git("rev-parse", "HEAD", cwd=first)


def test_unknown_repository_is_404(base_url: str, tmp_path: Path) -> None:
    response = httpx.get(f"{base_url}/demo/missing.git/info/refs?service=git-upload-pack")
    assert response.status_code == 404
    with pytest.raises(AssertionError, match="not found"):
        git("clone", "--quiet", f"{base_url}/nobody/missing.git", "x", cwd=tmp_path)


def test_advertises_refs_with_cgi_headers(base_url: str) -> None:
    response = httpx.get(f"{base_url}/demo/calc.git/info/refs?service=git-receive-pack")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-git-receive-pack-advertisement"
    assert b"refs/heads/main" in response.content


def test_accepts_gzip_request_bodies(base_url: str, repos_root: Path) -> None:
    head = git("rev-parse", "refs/heads/main", cwd=repository_path(repos_root, "demo", "calc"))
    want = f"want {head}\n"
    request = f"{len(want) + 4:04x}{want}0000" + "0009done\n"
    response = httpx.post(
        f"{base_url}/demo/calc.git/git-upload-pack",
        content=gzip.compress(request.encode()),
        headers={
            "Content-Type": "application/x-git-upload-pack-request",
            "Content-Encoding": "gzip",
        },
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/x-git-upload-pack-result"
    assert response.content.startswith(b"0008NAK\n")
    assert b"PACK" in response.content


def test_seed_is_reproducible_idempotent_and_ignores_build_output(tmp_path: Path) -> None:
    first = ensure_seed_repository(tmp_path / "a", "demo", "calc", CALC_SOURCE)
    sha = git("rev-parse", "refs/heads/main", cwd=first)
    assert ensure_seed_repository(tmp_path / "a", "demo", "calc", CALC_SOURCE) == first
    assert git("rev-parse", "refs/heads/main", cwd=first) == sha
    assert git("symbolic-ref", "HEAD", cwd=first) == "refs/heads/main"
    assert git("config", "http.receivepack", cwd=first) == "true"
    assert git("rev-list", "--count", "main", cwd=first) == "1"

    source = tmp_path / "source"
    shutil.copytree(CALC_SOURCE, source)
    (source / "calc" / "__pycache__").mkdir(exist_ok=True)
    (source / "calc" / "__pycache__" / "cli.cpython-311.pyc").write_bytes(b"\0")
    other = ensure_seed_repository(tmp_path / "b", "demo", "calc", source)
    assert git("rev-parse", "refs/heads/main", cwd=other) == sha
    files = git("ls-tree", "-r", "--name-only", "main", cwd=other).splitlines()
    assert "calc/operations.py" in files
    assert not [name for name in files if "__pycache__" in name]
    assert list((tmp_path / "a" / "demo").iterdir()) == [first]
