"""Where a failing test's call returned from a changed file: a second, traced run of it.

A test that fails on a wrong value fails in its own assert; its traceback never names the
line of the code that produced the value. Rerun under a profiler, the call the test made into
a changed file says where it returned, with what arguments and what value.
"""

import json
import shlex

from graphs.implementation.revision import is_test_file
from graphs.schemas import FailedTest, Returned, TestReport

MARKER = "ticketsmith-trace "
MAX_TRACED = 5
# Runs the given tests with a profiler on each test's call: of the calls into a watched file
# from outside it, the last one's arguments (as called), return line, source and value.
TRACE_SCRIPT = (
    "import json, linecache, os, sys\n"
    "import pytest\n"
    "root = os.getcwd()\n"
    "sys.path.insert(0, root)\n"
    "watched = {os.path.join(root, p): p for p in json.loads(sys.argv[1])}\n"
    "found = {}\n"
    "def shown(value):\n"
    "    try:\n"
    "        text = repr(value)\n"
    "    except Exception:\n"
    "        text = '?'\n"
    "    return text if len(text) <= 80 else text[:77] + '...'\n"
    "class Tracer:\n"
    "    @pytest.hookimpl(hookwrapper=True)\n"
    "    def pytest_runtest_call(self, item):\n"
    "        calls, last = {}, []\n"
    "        def profile(frame, event, arg):\n"
    "            name = frame.f_code.co_filename\n"
    "            if event not in ('call', 'return') or name not in watched:\n"
    "                return\n"
    "            back = frame.f_back\n"
    "            if back is not None and back.f_code.co_filename in watched:\n"
    "                return\n"
    "            code = frame.f_code\n"
    "            if event == 'call':\n"
    "                names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]\n"
    "                calls[id(frame)] = ', '.join(\n"
    "                    f'{n} = {shown(frame.f_locals.get(n))}'\n"
    "                    for n in names if n not in ('self', 'cls'))\n"
    "                return\n"
    "            line = linecache.getline(name, frame.f_lineno).strip()\n"
    "            last[:] = [watched[name], frame.f_lineno, line,\n"
    "                       calls.pop(id(frame), ''), shown(arg)]\n"
    "        sys.setprofile(profile)\n"
    "        try:\n"
    "            yield\n"
    "        finally:\n"
    "            sys.setprofile(None)\n"
    "            if last:\n"
    "                found[item.nodeid] = last\n"
    "pytest.main(['-q', '-p', 'no:cacheprovider', *sys.argv[2:]], plugins=[Tracer()])\n"
    "print()\n"
    "print('" + MARKER + "' + json.dumps(found))\n"
)


def watched_files(paths: list[str]) -> list[str]:
    """The changed source files a trace watches (Python, not tests)."""
    return [p for p in paths if p.endswith(".py") and not is_test_file(p)]


def rejects_a_value(failure: FailedTest) -> bool:
    """Whether the test failed its own check of what the code did: an assert, or an error it
    expected that was not raised (not a `TypeError` at the call, before the code ran)."""
    message = failure.message.lstrip()
    return message.startswith(("assert", "AssertionError")) or "DID NOT RAISE" in message


def traced_tests(report: TestReport, paths: list[str]) -> list[str]:
    """The failing tests worth a trace: those that rejected a value the code returned, their
    traceback ending outside the changed files."""
    found = []
    for failure in report.failed_tests:
        ends_in_file = any(f"\n{path}:" in f"\n{failure.details}" for path in paths)
        if rejects_a_value(failure) and not ends_in_file and "::" in failure.test_id:
            found.append(failure.test_id)
    return found[:MAX_TRACED]


def trace_command(tests: list[str], paths: list[str], python: str = "python") -> str:
    """The command that reruns the tests traced."""
    return shlex.join([python, "-c", TRACE_SCRIPT, json.dumps(paths), *tests])


def read_traces(output: str) -> dict[str, Returned]:
    """Each traced test's last return from a watched file, from the command's output."""
    for line in reversed(output.splitlines()):
        if line.startswith(MARKER):
            try:
                found = json.loads(line[len(MARKER) :])
                return {
                    test: Returned(path=p, line=n, code=c, arguments=a, value=v)
                    for test, (p, n, c, a, v) in found.items()
                }
            except (ValueError, TypeError):
                return {}
    return {}


def with_traces(report: TestReport, traces: dict[str, Returned]) -> TestReport:
    """The report with each traced failing test's return."""
    failed = [
        f.model_copy(update={"returned": traces[f.test_id]}) if f.test_id in traces else f
        for f in report.failed_tests
    ]
    return report.model_copy(update={"failed_tests": failed})
