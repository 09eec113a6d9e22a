"""Which lines of a long file a worker is shown, and splicing its answer back."""

from graphs.implementation.worker.window import (
    MAX_WINDOW_CHARS,
    Window,
    choose_window,
    code_names,
    splice,
)


def long_module() -> str:
    """A module far longer than a window, whose `request` method sits deep inside."""
    filler = "".join(
        f"def helper_{n}(session):\n    return session.request_count + {n}\n\n" for n in range(150)
    )
    target = (
        "class Session:\n"
        "    def request(self, method, url, timeout=None):\n"
        "        return send(method, url)\n\n"
    )
    tail = "".join(f"def after_{n}():\n    return {n}\n\n" for n in range(100))
    return filler + target + tail


def test_code_names_are_what_a_ticket_spells_as_code() -> None:
    names = code_names("Add a timeout to Session.request and fix `prepare` and get_help_record()")
    assert {"Session", "request", "prepare", "get_help_record"} <= names
    assert "timeout" not in names and "Add" not in names


def test_the_window_centres_on_the_definition_the_ticket_names() -> None:
    content = long_module()
    window = choose_window(content, "Add a timeout parameter to Session.request")
    assert not window.whole and len(window.text) <= MAX_WINDOW_CHARS
    assert "    def request(self, method, url, timeout=None):\n" in window.text


def test_splicing_a_window_keeps_the_rest_of_the_file() -> None:
    content = long_module()
    window = choose_window(content, "Session.request")
    new = window.text.replace("timeout=None", "timeout=30")
    spliced = splice(content, window, new)
    assert spliced == content.replace("timeout=None", "timeout=30")


def test_a_line_longer_than_any_window_is_shown_whole() -> None:
    content = "a = 1\n" + "bundle = '" + "a" * 3 * MAX_WINDOW_CHARS + "'\n" + "b = 2\n"
    window = choose_window(content, "the bundle")
    assert len(window.text) > MAX_WINDOW_CHARS  # the worker skips such a file


def test_lines_an_answer_copies_from_around_its_window_are_not_spliced_in_twice() -> None:
    head = '"""Lengths."""\n\nimport re\n\n'
    content = head + '_UNITS = "cm"\n_MILLIMETRES = {"c": 10}\n\n\ndef f():\n    pass\n'
    window = Window(4, 6, 10, '_UNITS = "cm"\n_MILLIMETRES = {"c": 10}\n')
    answer = 'import re\n\n_UNITS = "kcm"\n_MILLIMETRES = {"k": 10**6, "c": 10}\n\n\ndef f():\n'
    spliced = splice(content, window, answer)
    assert spliced == content.replace('"cm"', '"kcm"').replace('{"c"', '{"k": 10**6, "c"')


def test_an_answer_of_only_blank_lines_around_is_kept_as_written() -> None:
    content = "a = 1\n\nb = 2\n\nc = 3\n"
    window = Window(2, 3, 5, "b = 2\n")
    assert splice(content, window, "\nb = 3\n") == "a = 1\n\n\nb = 3\n\nc = 3\n"
