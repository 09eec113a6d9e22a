"""Progress of the server's compilation: every 10 % and at least once a minute, naming the file."""

import re
import threading
import time
from collections.abc import Callable
from pathlib import Path

Say = Callable[[str], None]
PERCENT = re.compile(r"\[\s*(\d{1,3})%\]")
OBJECT = re.compile(r"Building \w+ object (\S+?)(?:\.o|\.obj)?$")
# Before cmake runs, pip and the build back end work for minutes without a percentage.
STAGES = (
    ("Collecting", "fetching the sources"),
    ("Installing build dependencies", "installing the build tools"),
    ("Preparing metadata", "configuring the build"),
    ("Building wheel", "compiling"),
    ("Successfully installed", "installing the server"),
)


class BuildProgress:
    """Reads the build's output; says where it is every 10 % and whenever a minute passed."""

    def __init__(
        self, say: Say, every_s: float = 60.0, clock: Callable[[], float] = time.monotonic
    ):
        self._say, self._every, self._clock = say, every_s, clock
        self._started = self._last_said = clock()
        self._percent, self._shown = 0, -10
        self._doing = "starting pip"
        self._lock = threading.Lock()

    def line(self, text: str) -> None:
        """Take one line of the build's output."""
        text = text.strip()
        with self._lock:
            for prefix, stage in STAGES:
                if text.startswith(prefix):
                    self._doing = stage
            if found := OBJECT.search(text):
                self._doing = f"compiling {Path(found.group(1)).name}"
            if found := PERCENT.search(text):
                self._percent = int(found.group(1))
                if self._percent >= self._shown + 10:
                    self._shown = self._percent // 10 * 10
                    self._report()

    def tick(self) -> None:
        """Say where the build is if nothing was said for a minute."""
        with self._lock:
            if self._clock() - self._last_said >= self._every:
                self._report()

    def _report(self) -> None:
        elapsed = self._clock() - self._started
        self._say(f"  build {self._percent:3d}% after {elapsed / 60:4.1f} min: {self._doing}")
        self._last_said = self._clock()

    def ticking(self) -> "Ticker":
        """A thread that calls `tick` every few seconds until stopped."""
        return Ticker(self)


class Ticker:
    """Calls `BuildProgress.tick` from a thread: a file can compile for minutes in silence."""

    def __init__(self, progress: BuildProgress) -> None:
        self._progress = progress
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="build-progress", daemon=True)

    def __enter__(self) -> "Ticker":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(5):
            self._progress.tick()
