"""The bubblewrap jail every workspace command runs in: what it sees, what it may do, its limits.

Only the system directories (read-only), a private /tmp and the paths a run names are visible;
no network unless asked (environment set-up), its own PID namespace, no capabilities, limits
by rlimit. Run by root, bubblewrap mounts as root and the command then drops to an unprivileged
uid inside (limits on processes hold: the kernel exempts root from them; root-owned files stay
out of reach): a uid of the run's own (integrations/workspace/uid_leases.py), so that the
processes limit, which the kernel counts per uid, is the run's alone. Run by anyone else, it maps
the user into a user namespace without capabilities.
"""

import contextlib
import os
import shutil
import subprocess
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from integrations.workspace.uid_leases import Lease, UidRange

if TYPE_CHECKING:
    from config.sandbox import SandboxSettings

SandboxMode = Literal["bwrap", "none"]  # the values of `Settings.sandbox`
SHARED_UID = 65534  # nobody: environment set-up, and every run when no range is given
MOUNT_POINT = Path("/run/ticketsmith")
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
# What programs need from /etc; the rest (shadow, keys, the worker's config) stays hidden.
ETC_ENTRIES = (
    "alternatives", "ca-certificates", "ca-certificates.conf", "group", "host.conf", "hosts",
    "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "mime.types", "nsswitch.conf",
    "os-release", "passwd", "protocols", "resolv.conf", "services", "ssl", "timezone",
)  # fmt: skip


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create namespaces here."""


@dataclass(frozen=True)
class Limits:
    """What one run may use; each is reported by name when a run hits it."""

    memory_mb: int = 2048
    processes: int = 256
    cpu_seconds: int = 600
    output_bytes: int = 16 * 1024 * 1024

    def rlimits(self) -> dict[str, tuple[int, int]]:
        """The limits as `resource` rlimits (soft, hard); CPU warns with SIGXCPU first."""
        memory = self.memory_mb * 1024 * 1024
        return {
            "RLIMIT_AS": (memory, memory),
            "RLIMIT_NPROC": (self.processes, self.processes),
            "RLIMIT_CPU": (self.cpu_seconds, self.cpu_seconds + 1),
        }

    def prlimit_argv(self) -> list[str]:
        """The same limits as a `prlimit` command prefix (set inside the sandbox's namespaces)."""
        memory = self.memory_mb * 1024 * 1024
        return [
            "prlimit",
            f"--as={memory}",
            f"--nproc={self.processes}",
            f"--cpu={self.cpu_seconds}:{self.cpu_seconds + 1}",
            "--",
        ]


@dataclass(frozen=True)
class Mounts:
    """Paths a run sees besides the system: read-write and read-only, each at its own path."""

    writable: Sequence[Path] = ()
    readable: Sequence[Path] = ()
    files: dict[Path, Path] = field(default_factory=dict)  # host file -> path inside


@dataclass(frozen=True)
class Sandbox:
    """How workspace commands are confined: `bwrap` (the default) or `none` (unsandboxed)."""

    mode: SandboxMode = "bwrap"
    limits: Limits = Limits()
    bwrap: str = "bwrap"
    # Where each run's own uid comes from when the worker is root; None: all run as `uid`.
    uids: UidRange | None = UidRange()
    uid: int = SHARED_UID
    names: tuple[Path, Path] | None = None  # passwd and group files naming `uid`

    def for_setup(self, timeout_s: float) -> "Sandbox":
        """The same sandbox with room for installers (many threads, large builds)."""
        limits = Limits(
            memory_mb=max(self.limits.memory_mb, 8192),
            processes=max(self.limits.processes, 1024),
            cpu_seconds=max(self.limits.cpu_seconds, int(timeout_s) * 2),
            output_bytes=self.limits.output_bytes,
        )
        # Set-up writes its repository's package cache, which all its tickets share: one writer.
        return replace(self, limits=limits, uids=None, uid=SHARED_UID, names=None)

    @contextlib.asynccontextmanager
    async def for_run(self, key: str, timeout_s: float) -> AsyncIterator["Sandbox"]:
        """This sandbox for one run in the workspace `key`: as root, with a uid of its own,
        held while the block runs (waiting up to `timeout_s` for one)."""
        if not self.drops_root or self.uids is None:
            yield self
            return
        async with self.uids.lease(key, timeout_s) as lease:
            yield self._leased(lease)

    def isolation(self) -> str:
        """How runs are kept from starving each other, for the worker's start line."""
        per_process = "memory and CPU are limited per process"
        if not self.sandboxed:
            return "none: every run is this worker's user and shares its processes limit"
        if self.drops_root and self.uids is not None:
            return (
                f"a uid of its own per run, from {self.uids.describe()} (leases in "
                f"{self.uids.directory}): each run has its own processes limit; {per_process}"
            )
        if self.drops_root:
            return f"every run as uid {self.uid}: runs share one processes limit; {per_process}"
        return (
            "every run as this worker's user in a user namespace: runs share that user's "
            f"processes limit; {per_process}"
        )

    def _leased(self, lease: Lease) -> "Sandbox":
        return replace(self, uids=None, uid=lease.uid, names=(lease.passwd, lease.group))

    @property
    def sandboxed(self) -> bool:
        """True when commands run inside bubblewrap."""
        return self.mode == "bwrap"

    @property
    def drops_root(self) -> bool:
        """True when the worker is root and commands run as an unprivileged uid instead."""
        return self.sandboxed and os.geteuid() == 0

    def wrap(self, argv: Sequence[str], cwd: Path, mounts: Mounts, network: bool) -> list[str]:
        """The argv that runs `argv` in `cwd` inside the sandbox (unchanged when unsandboxed)."""
        if not self.sandboxed:
            return list(argv)
        if self.drops_root:
            jail = [self.bwrap, "--unshare-ipc", "--unshare-pid", "--unshare-net"]
            jail += ["--unshare-uts", "--unshare-cgroup-try"]
            uid = str(self.uid)
            drop = ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups"]
            drop += ["--inh-caps=-all", "--bounding-set=-all", "--"]
        else:
            jail = [self.bwrap, "--unshare-all", "--unshare-user", "--cap-drop", "ALL"]
            drop = []
        jail += ["--die-with-parent", "--new-session"]
        if network:
            jail.append("--share-net")
        jail += _system_binds() + ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
        if self.names is not None and self.drops_root:
            jail += ["--ro-bind", str(self.names[0]), "/etc/passwd"]
            jail += ["--ro-bind", str(self.names[1]), "/etc/group"]
        jail += _parents([*mounts.readable, *mounts.writable, *mounts.files.values()])
        for path in mounts.readable:
            jail += ["--ro-bind", str(path), str(path)]
        for path in mounts.writable:
            jail += ["--bind", str(path), str(path)]
            if (path / ".git").is_dir():  # the worker runs git there later, unsandboxed: no hooks
                jail += ["--ro-bind", str(path / ".git"), str(path / ".git")]
        for host, inside in mounts.files.items():
            jail += ["--ro-bind", str(host), str(inside)]
        return [*jail, "--chdir", str(cwd), "--", *drop, *self.limits.prlimit_argv(), *argv]

    def give(self, paths: Sequence[Path], always: bool = True) -> None:
        """Make paths (recursively) owned by the uid commands run as, when that is not ours.

        With `always` False a path whose top is already theirs is left alone (a cache only
        the sandbox writes to).
        """
        if not self.drops_root:
            return
        for top in paths:
            if not always and top.lstat().st_uid == self.uid:
                continue
            for path in [top, *top.rglob("*")] if top.is_dir() else [top]:
                if path.lstat().st_uid != self.uid:
                    os.lchown(path, self.uid, self.uid)

    def check(self) -> None:
        """Raise SandboxUnavailable with what to do unless a trivial command runs sandboxed."""
        if not self.sandboxed:
            return
        found = shutil.which(self.bwrap)
        if not found:
            raise SandboxUnavailable(
                f"bubblewrap ({self.bwrap}) is not installed: install it (Debian/Ubuntu: "
                "`apt-get install bubblewrap`) or set TICKETSMITH_SANDBOX=none to run "
                "workspace commands unsandboxed"
            )
        try:
            lease = self.uids.take("check") if self.drops_root and self.uids else None
        except OSError as err:
            where = self.uids.directory if self.uids else ""
            raise SandboxUnavailable(
                f"cannot keep the sandbox's uid leases in {where}: {err}"
            ) from err
        sandbox = self._leased(lease) if lease else self
        argv = sandbox.wrap(["true"], Path("/"), Mounts(), network=False)
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise SandboxUnavailable(f"bubblewrap cannot run here: {err}") from err
        finally:
            if lease:
                lease.release()
        if done.returncode != 0:
            raise SandboxUnavailable(
                f"bubblewrap cannot create its namespaces here ({done.stderr.strip()}); "
                "in a container, allow user namespaces (e.g. Docker: --security-opt "
                "seccomp=unconfined --security-opt apparmor=unconfined), or set "
                "TICKETSMITH_SANDBOX=none to run workspace commands unsandboxed"
            )


def sandbox_from(settings: "SandboxSettings") -> Sandbox:
    """The sandbox the settings describe for workspace commands."""
    limits = Limits(
        memory_mb=settings.sandbox_memory_mb,
        processes=settings.sandbox_max_processes,
        cpu_seconds=settings.sandbox_cpu_seconds,
        output_bytes=settings.sandbox_output_mb * 1024 * 1024,
    )
    uids = UidRange(base=settings.sandbox_uid_base, count=settings.sandbox_uid_count)
    return Sandbox(mode=settings.sandbox, limits=limits, uids=uids)


def _parents(paths: Sequence[Path]) -> list[str]:
    """Create the folders above each mount point, traversable: bwrap makes missing ones 0700,
    which would lock the unprivileged command out of its own workspace."""
    bound = [Path(p) for p in (*SYSTEM_DIRS, "/proc", "/dev")]
    bound += [Path("/etc", entry) for entry in ETC_ENTRIES]
    made: list[str] = []
    for path in paths:
        for parent in reversed(path.parents[:-1]):
            if any(parent.is_relative_to(top) for top in bound):
                break
            if str(parent) not in made:
                made.append(str(parent))
    return [arg for folder in made for arg in ("--perms", "0755", "--dir", folder)]


def _system_binds() -> list[str]:
    """Read-only binds of the system directories (symlinks stay symlinks) and /etc's basics."""
    binds: list[str] = []
    for name in SYSTEM_DIRS:
        path = Path(name)
        if path.is_symlink():
            binds += ["--symlink", os.readlink(path), name]
        elif path.is_dir():
            binds += ["--ro-bind", name, name]
    binds += ["--perms", "0755", "--dir", "/etc"]  # bwrap would make it 0700
    for entry in ETC_ENTRIES:
        binds += ["--ro-bind-try", f"/etc/{entry}", f"/etc/{entry}"]
    return binds
