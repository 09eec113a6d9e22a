"""Acceptance of the converter page: a form with a celsius field, and 100 shown as 212."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_serving import fetch, serving  # noqa: E402

BASE = "http://127.0.0.1:8766"


def main() -> int:
    try:
        with serving("converter", f"{BASE}/"):
            status, page = fetch(f"{BASE}/")
            converted_status, converted = fetch(f"{BASE}/?celsius=100")
    except OSError as err:
        print(f"FAIL: the server did not answer: {err}")
        return 1
    has_field = 'name="celsius"' in page.replace("'", '"')
    if status != 200 or "<form" not in page.lower() or not has_field:
        print(f"FAIL GET /: {status}, no form with a celsius field: {page[:300]!r}")
        return 1
    if converted_status != 200 or "212" not in converted:
        print(f"FAIL GET /?celsius=100: {converted_status}, no 212 in {converted[:300]!r}")
        return 1
    print("ok: the form converts 100 to 212")
    return 0


if __name__ == "__main__":
    sys.exit(main())
