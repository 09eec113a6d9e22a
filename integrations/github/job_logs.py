"""GitHub Actions job logs: downloaded from the signed URL the API redirects to, bounded, and
cut down to the lines around the failure.

The API answers `GET .../actions/jobs/{id}/logs` with a 302 to a short-lived signed URL on
another host; that URL carries its own authorization, so the API token is never sent there.
A log is read to at most `MAX_READ` bytes, keeping the last `KEEP` (a failure is at the end).
"""

import httpx

from integrations.github.log_lines import clean_line
from integrations.http import raise_for_status

MAX_READ = 20 * 1024 * 1024
KEEP = 512 * 1024
EXCERPT = 4_000
REDIRECTS = {301, 302, 303, 307, 308}
SUMMARY = "short test summary info"  # pytest's list of what failed, one line each


async def download_log(http: httpx.AsyncClient, service: str, response: httpx.Response) -> str:
    """The text behind the API's answer: its redirect followed without the API's token."""
    if response.status_code not in REDIRECTS:
        raise_for_status(service, response)
        return response.text[-KEEP:]
    location = response.headers.get("location", "")
    request = http.build_request("GET", location)
    request.headers.pop("Authorization", None)  # the signed URL is its own authorization
    downloaded = await http.send(request, stream=True, follow_redirects=False)
    try:
        if downloaded.status_code >= 300:
            await downloaded.aread()
            raise_for_status(service, downloaded)
        kept, read = bytearray(), 0
        async for chunk in downloaded.aiter_bytes():
            read += len(chunk)
            kept = (kept + chunk)[-KEEP:]
            if read >= MAX_READ:
                break
    finally:
        await downloaded.aclose()
    text = bytes(kept).decode("utf-8", errors="replace")
    return text if read <= len(kept) else "[... earlier lines of the log left out ...]\n" + text


def failure_excerpt(log: str, limit: int = EXCERPT) -> str:
    """The lines that say why the job failed: up to the first `##[error]`, with the test
    runner's summary kept whole when the excerpt must be cut."""
    lines = [clean_line(line) for line in log.splitlines()]
    errors = [i for i, line in enumerate(lines) if line.startswith("##[error]")]
    end = errors[0] + 1 if errors else len(lines)
    summary = next((i for i in range(end - 1, -1, -1) if SUMMARY in lines[i]), None)
    kept: list[str] = []
    size = 0
    for i in range(end - 1, -1, -1):
        size += len(lines[i]) + 1
        if size > limit:
            break
        kept.insert(0, lines[i])
    start = end - len(kept)
    if summary is not None and summary < start:  # the summary did not fit: it goes first
        block = "\n".join(lines[summary:end])[: limit // 2]
        tail = "\n".join(kept)[-(limit - len(block) - 10) :]
        return f"{block}\n[...]\n{tail}"
    return "\n".join(kept)
