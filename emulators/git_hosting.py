"""Git smart-HTTP hosting of bare repositories through the real `git http-backend` CGI."""

import asyncio
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

import structlog
from fastapi import APIRouter, HTTPException, Request, Response

# Told after a push: owner, repository, the request, and the refs it moved
# (ref, old sha or forty zeros for a new ref, new sha).
AfterPush = Callable[[str, str, Request, list[tuple[str, str, str]]], Awaitable[None]]
# Told when a push begins (git asks for the refs to push onto): owner, repository, request.
BeforePush = Callable[[str, str, Request], Awaitable[None]]

log = structlog.get_logger(__name__)

SEED_REPOS_DIR = Path(__file__).resolve().parent / "seed" / "repos"
SEED_AUTHOR = "Demo Maintainer <maintainer@example.com>"
SEED_DATE = "2024-01-01T00:00:00+00:00"
SEED_MESSAGE = "Initial commit\n"

_NAME = re.compile(r"^[A-Za-z0-9_][\w.-]*$")
_BACKEND_TIMEOUT_S = 300.0
# Hop-by-hop or recomputed headers the CGI may emit that must not be copied to the response.
_DROPPED_HEADERS = {"status", "content-length", "transfer-encoding", "connection"}


def repository_path(repos_root: Path, owner: str, name: str) -> Path:
    """Where the bare repository of owner/name lives."""
    return repos_root / owner / f"{name}.git"


def create_git_router(
    repos_root: Path,
    after_push: AfterPush | None = None,
    before_push: BeforePush | None = None,
    refused: Callable[[Request], bool] | None = None,
) -> APIRouter:
    """A router serving `/{owner}/{repo}.git/...` over git smart HTTP; push is allowed.

    `refused` says which requests' credentials get GitHub's 401 (any are taken without it).
    """
    router = APIRouter(tags=["git"])
    root = repos_root.resolve()

    @router.api_route(
        "/{owner}/{repo}.git/{path:path}",
        methods=["GET", "HEAD", "POST"],
        include_in_schema=False,
    )
    async def git_http(owner: str, repo: str, path: str, request: Request) -> Response:
        """Hand one smart-HTTP request to `git http-backend`."""
        if not (_NAME.match(owner) and _NAME.match(repo)) or ".." in path.split("/"):
            raise HTTPException(status_code=404, detail="Not Found")
        if not repository_path(root, owner, repo).is_dir():
            raise HTTPException(status_code=404, detail=f"repository {owner}/{repo} not found")
        if refused is not None and refused(request):
            challenge = {"WWW-Authenticate": 'Basic realm="GitHub"'}
            return Response(b"Bad credentials\n", status_code=401, headers=challenge)
        begins = path == "info/refs" and request.query_params.get("service") == "git-receive-pack"
        if begins and before_push is not None:
            await before_push(owner, repo, request)
        body = await request.body()
        env = _cgi_environment(root, f"/{owner}/{repo}.git/{path}", request, body)
        pushing = after_push is not None and path == "git-receive-pack"
        before = await branch_heads(repository_path(root, owner, repo)) if pushing else {}
        output = await _run_backend(env, body)
        if pushing and after_push is not None:
            after = await branch_heads(repository_path(root, owner, repo))
            moved = [
                (ref, before.get(ref, "0" * 40), sha)
                for ref, sha in after.items()
                if before.get(ref) != sha
            ]
            if moved:
                await after_push(owner, repo, request, moved)
        return _parse_cgi_response(output)

    return router


async def branch_heads(bare: Path) -> dict[str, str]:
    """Every branch of a bare repository and its commit."""
    proc = await asyncio.create_subprocess_exec(
        "git", "--git-dir", str(bare), "for-each-ref", "--format=%(refname) %(objectname)",
        "refs/heads", stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    out, _ = await proc.communicate()
    return dict(line.split(" ", 1) for line in out.decode().splitlines() if " " in line)


def _cgi_environment(root: Path, path_info: str, request: Request, body: bytes) -> dict[str, str]:
    """The CGI variables `git http-backend` reads; any credentials are accepted."""
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
    env.update(
        GIT_PROJECT_ROOT=str(root),
        GIT_HTTP_EXPORT_ALL="1",
        PATH_INFO=path_info,
        REQUEST_METHOD=request.method,
        QUERY_STRING=request.url.query,
        REMOTE_USER="ticketsmith",
        REMOTE_ADDR=request.client.host if request.client else "127.0.0.1",
    )
    if request.method == "POST":
        env["CONTENT_LENGTH"] = str(len(body))
    optional = {
        "content-type": "CONTENT_TYPE",
        "content-encoding": "HTTP_CONTENT_ENCODING",
        "git-protocol": "HTTP_GIT_PROTOCOL",
    }
    for header, variable in optional.items():
        if value := request.headers.get(header):
            env[variable] = value
    return env


async def _run_backend(env: dict[str, str], body: bytes) -> bytes:
    """Run `git http-backend` with the request body on stdin and return its raw output."""
    proc = await asyncio.create_subprocess_exec(
        "git",
        "http-backend",
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        stdout, stderr = await asyncio.wait_for(proc.communicate(body), _BACKEND_TIMEOUT_S)
    except BaseException:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        raise
    if stderr.strip():
        log.warning("git http-backend stderr", path=env["PATH_INFO"], stderr=stderr.decode())
    return stdout


def _parse_cgi_response(output: bytes) -> Response:
    """Turn a CGI response (headers, blank line, body) into a FastAPI response."""
    crlf, lf = output.find(b"\r\n\r\n"), output.find(b"\n\n")
    if crlf != -1 and (lf == -1 or crlf <= lf):
        head, body = output[:crlf], output[crlf + 4 :]
    elif lf != -1:
        head, body = output[:lf], output[lf + 2 :]
    else:
        return Response(content=b"git http-backend gave no response\n", status_code=502)
    status = 200
    headers: list[tuple[str, str]] = []
    for line in head.decode("latin-1").splitlines():
        name, _, value = line.partition(":")
        name, value = name.strip(), value.strip()
        if name.lower() == "status":
            status = int(value.split()[0])
        elif name and name.lower() not in _DROPPED_HEADERS:
            headers.append((name, value))
    response = Response(content=body, status_code=status)
    for name, value in headers:
        response.headers.append(name, value)
    return response


def ensure_seed_repository(repos_root: Path, owner: str, name: str, source_dir: Path) -> Path:
    """Create owner/name as a bare repo whose one reproducible commit holds source_dir."""
    bare = repository_path(repos_root, owner, name)
    if (bare / "HEAD").is_file():
        return bare
    if not source_dir.is_dir():
        raise FileNotFoundError(f"seed source directory {source_dir} does not exist")
    bare.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=bare.parent))
    try:
        _build_seed(staging / "repo.git", source_dir.resolve())
        try:
            (staging / "repo.git").rename(bare)
        except OSError:
            if not (bare / "HEAD").is_file():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    log.info("seeded git repository", repository=f"{owner}/{name}", path=str(bare))
    return bare


def create_empty_repository(repos_root: Path, owner: str, name: str, branch: str) -> Path:
    """Create owner/name as an empty bare repository that accepts pushes (kept if it exists)."""
    bare = repository_path(repos_root, owner, name)
    if (bare / "HEAD").is_file():
        return bare
    bare.parent.mkdir(parents=True, exist_ok=True)
    for args in (
        ["init", "--quiet", "--bare", f"--initial-branch={branch}", str(bare)],
        [f"--git-dir={bare}", "config", "http.receivepack", "true"],
    ):
        subprocess.run(["git", *args], check=True, capture_output=True)
    log.info("created git repository", repository=f"{owner}/{name}", path=str(bare))
    return bare


def _build_seed(git_dir: Path, source_dir: Path) -> None:
    """Initialise a bare repository and commit the files of source_dir on `main`."""
    author_name, _, email = SEED_AUTHOR.partition(" <")
    env = {key: os.environ[key] for key in ("PATH", "HOME") if key in os.environ}
    env.update(
        GIT_CONFIG_NOSYSTEM="1",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_INDEX_FILE=str(git_dir.parent / "index"),
        GIT_AUTHOR_NAME=author_name,
        GIT_AUTHOR_EMAIL=email.rstrip(">"),
        GIT_AUTHOR_DATE=SEED_DATE,
        GIT_COMMITTER_NAME=author_name,
        GIT_COMMITTER_EMAIL=email.rstrip(">"),
        GIT_COMMITTER_DATE=SEED_DATE,
    )

    def git(*args: str, stdin: str | None = None) -> str:
        done = subprocess.run(
            ["git", "-c", f"core.excludesFile={os.devnull}", f"--git-dir={git_dir}", *args],
            env=env,
            input=stdin,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"seeding {git_dir}: git {' '.join(args)}: {done.stderr}")
        return done.stdout.strip()

    git("init", "--quiet", "--bare", "--template=", "--initial-branch=main")
    git(f"--work-tree={source_dir}", "add", "--all", ".")
    tree = git("write-tree")
    commit = git("commit-tree", tree, "-F", "-", stdin=SEED_MESSAGE)
    git("update-ref", "refs/heads/main", commit)
    git("config", "http.receivepack", "true")
