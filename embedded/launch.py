"""Starts one of the stack's Python services, saying so before its (slow) imports.

`python -m embedded.launch NAME worker.py` or `... NAME -m emulators --port 8100`: the first
line of the service's log then appears at once, however long its imports take.
"""

import os
import runpy
import sys
import time


def main() -> None:
    """Log a first line, then run the script or module as `__main__`."""
    name, *argv = sys.argv[1:]
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    sys.stdout.write(f"{stamp} {name} starting (pid {os.getpid()}), loading its code\n")
    sys.stdout.flush()
    if argv[0] == "-m":
        sys.argv = [argv[1], *argv[2:]]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
