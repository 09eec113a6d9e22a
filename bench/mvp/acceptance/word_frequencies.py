"""Acceptance of the word-frequency library: its documented function on a small text."""

import sys

sys.path[:0] = [".", "src"]


def main() -> int:
    try:
        from wordstats import word_frequencies
    except Exception as err:  # noqa: BLE001 (any import failure fails the acceptance)
        print(f"FAIL: cannot import wordstats.word_frequencies: {err!r}")
        return 1
    if not (word_frequencies.__doc__ or "").strip():
        print("FAIL: word_frequencies has no docstring")
        return 1
    text = "The cat and the hat. A cat! The end, and the END."
    checks = {
        "top 3": (word_frequencies(text), [("the", 4), ("and", 2), ("cat", 2)]),
        "top 1": (word_frequencies(text, top=1), [("the", 4)]),
    }
    for name, (got, expected) in checks.items():
        if [tuple(pair) for pair in got] != expected:
            print(f"FAIL {name}: {got!r}, expected {expected!r}")
            return 1
    print("ok: word_frequencies counts, orders and cuts as documented")
    return 0


if __name__ == "__main__":
    sys.exit(main())
