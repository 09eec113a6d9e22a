"""How a generated project is run: its command, the module that command starts, and the smoke
run that shows it starts and does its first thing."""

import re
import shlex
from pathlib import PurePosixPath

from pydantic import BaseModel

from graphs.mvp.manager import ManagerDecision

PYTHONS = ("python", "python3")
# An argument that names a file: a relative path with a word for its suffix (`temps.csv`).
FILE_ARGUMENT = re.compile(r"[\w][\w./-]*\.[A-Za-z][A-Za-z0-9]{0,4}")
DEFAULT_URL = "http://127.0.0.1:8000/"
# Started inside the sandbox with the server's command after it: waits for the URL to answer,
# prints what it answered, stops the server. Loopback works inside the sandbox's own network.
WEB_PROBE = """
import subprocess, sys, time, urllib.error, urllib.request
url, command, wait = sys.argv[1], sys.argv[2:], 20.0
server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
deadline, answer = time.monotonic() + wait, None
while time.monotonic() < deadline and server.poll() is None and answer is None:
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            answer = (reply.status, reply.read(400).decode("utf-8", "replace"))
    except urllib.error.HTTPError as err:
        answer = (err.code, err.read(400).decode("utf-8", "replace"))
    except OSError:
        time.sleep(0.2)
exited = server.poll()
server.terminate()
try:
    out = server.communicate(timeout=5)[0]
except subprocess.TimeoutExpired:
    server.kill()
    out = server.communicate()[0]
print(out[-1500:])
if answer is None:
    why = f"exited with {exited}" if exited is not None else f"did not answer in {wait:.0f} s"
    print(f"{url}: no answer: the server {why}")
    sys.exit(1)
print(f"GET {url} -> {answer[0]}\\n{answer[1]}")
sys.exit(0 if answer[0] < 500 else 1)
"""


class Usage(BaseModel):
    """How a first user runs the project and what they see."""

    interface: str = "command line"
    command: str = ""
    first_use: str = ""
    url: str = ""

    @classmethod
    def of(cls, decision: ManagerDecision) -> "Usage":
        """The usage the manager planned."""
        return cls(
            interface=decision.interface,
            command=decision.run_command.strip().strip("`").strip(),
            first_use=decision.first_use.strip(),
            url=decision.url.strip(),
        )

    def text(self) -> str:
        """The usage in one sentence, as the plan and the summary state it."""
        if not self.command:
            return f"A {self.interface} project; no command to run it was planned."
        web = self.interface == "web server"
        where = f", answering at {self.url or DEFAULT_URL}" if web else ""
        return f"Run `{self.command}`{where}: {self.first_use or 'its first use'}"

    def argv(self) -> list[str] | None:
        """The command split like a shell would; None when there is none or it does not split."""
        try:
            argv = shlex.split(self.command)
        except ValueError:
            return None
        return argv or None

    def smoke_argv(self, python: str = "python") -> list[str] | None:
        """What the smoke run executes: the command itself, or the web probe around it."""
        argv = self.argv()
        if argv is None or self.interface == "desktop":
            return None
        if argv[0] in PYTHONS:
            argv = [python, *argv[1:]]
        if self.interface == "web server":
            return [python, "-c", WEB_PROBE, self.url or DEFAULT_URL, *argv]
        return argv


def entry_module(usage: Usage, paths: list[str]) -> str | None:
    """The project file the command starts (`python -m pkg`, `python app.py`), if it has one."""
    argv = usage.argv() or []
    if len(argv) < 2 or argv[0] not in PYTHONS:
        return None
    if argv[1] == "-m" and len(argv) > 2:
        dotted = argv[2].replace(".", "/")
        candidates = [f"{dotted}/__main__.py", f"{dotted}.py"]
        candidates += [f"src/{c}" for c in candidates]
        return next((c for c in candidates if c in paths), candidates[0])
    if argv[1].endswith(".py"):
        return str(PurePosixPath(argv[1]))
    return None


def inline_code(usage: Usage) -> str | None:
    """The code of a `python -c "..."` command: the modules it imports are reached."""
    argv = usage.argv() or []
    if len(argv) >= 3 and argv[0] in PYTHONS and argv[1] == "-c":
        return argv[2]
    return None


def input_files(usage: Usage) -> list[str]:
    """The files the command names after its script or module: a first use reads them, so the
    project ships a sample of each."""
    argv = usage.argv() or []
    if len(argv) < 2 or argv[0] not in PYTHONS or argv[1] == "-c":
        return []
    rest = argv[3:] if argv[1] == "-m" else argv[2:]
    return [arg for arg in rest if FILE_ARGUMENT.fullmatch(arg) and ".." not in arg]
