"""Acceptance of the bookmarks API: add one, list them, find it."""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from http_serving import fetch, serving  # noqa: E402

BASE = "http://127.0.0.1:8765"


def main() -> int:
    try:
        with serving("bookmarks", f"{BASE}/bookmarks"):
            body = json.dumps({"url": "https://example.org", "title": "Example"}).encode()
            status, text = fetch(f"{BASE}/bookmarks", body, "application/json")
            if status != 201:
                print(f"FAIL POST /bookmarks: {status} {text[:200]}")
                return 1
            status, text = fetch(f"{BASE}/bookmarks")
    except OSError as err:
        print(f"FAIL: the server did not answer: {err}")
        return 1
    try:
        listed = json.loads(text)
    except ValueError:
        print(f"FAIL GET /bookmarks is not JSON: {text[:200]!r}")
        return 1
    found = isinstance(listed, list) and any(
        isinstance(b, dict) and b.get("url") == "https://example.org" for b in listed
    )
    if status != 200 or not found:
        print(f"FAIL GET /bookmarks: {status} {text[:200]}")
        return 1
    print(f"ok: {len(listed)} bookmark(s) listed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
