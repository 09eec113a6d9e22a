"""The package index's advisories for one release: PyPI's JSON API, as pip-audit reads it.

`GET {index}/pypi/{name}/{version}/json` answers with a `vulnerabilities` array (id, aliases,
summary or details, fixed_in, link, withdrawn); a release the index does not have is a 404.
"""

from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel, Field
from temporalio.exceptions import ApplicationError

from integrations.http import ServiceClient, build_http_client, raise_for_status

SERVICE = "AdvisoryIndex"
SUMMARY_LIMIT = 200


class Advisory(BaseModel):
    """One known vulnerability of a release."""

    id: str
    aliases: list[str] = Field(default_factory=list)
    summary: str = ""
    fixed_in: list[str] = Field(default_factory=list)
    link: str = ""


class AdvisoryIndexClient(ServiceClient):
    """The index's JSON API (https://pypi.org, or a mirror that serves the same API)."""

    def __init__(self, base_url: str, transport: httpx.AsyncBaseTransport | None = None) -> None:
        headers = {"Accept": "application/json"}
        super().__init__(build_http_client(base_url, headers, transport=transport))

    async def advisories(self, name: str, version: str) -> list[Advisory]:
        """The release's advisories, withdrawn ones left out; `AdvisoryIndexNotFound` when the
        index has no such release."""
        path = f"/pypi/{quote(name, safe='')}/{quote(version, safe='')}/json"
        try:
            response = await self._http.get(path)
        except httpx.TransportError as err:
            raise ApplicationError(
                f"{SERVICE} GET {path}: {type(err).__name__}: {err}",
                type=f"{SERVICE}Unreachable",
            ) from err
        raise_for_status(SERVICE, response)
        try:
            body = response.json()
        except ValueError as err:
            raise ApplicationError(
                f"{SERVICE} GET {path} answered with something other than JSON",
                type=f"{SERVICE}BadAnswer", non_retryable=True,
            ) from err  # fmt: skip
        found = body.get("vulnerabilities") if isinstance(body, dict) else None
        return unique(advisory(item) for item in found or [] if _current(item))


def _current(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("id"), str) and not item.get("withdrawn")


def advisory(item: dict[str, Any]) -> Advisory:
    """One entry of the `vulnerabilities` array."""
    text = item.get("summary") or item.get("details") or ""
    first_line = str(text).strip().splitlines()[0] if str(text).strip() else ""
    return Advisory(
        id=item["id"],
        aliases=[str(a) for a in item.get("aliases") or []],
        summary=first_line[:SUMMARY_LIMIT],
        fixed_in=[str(v) for v in item.get("fixed_in") or []],
        link=str(item.get("link") or ""),
    )


def unique(advisories: Any) -> list[Advisory]:
    """One advisory per vulnerability: the same one under several ids (PYSEC, GHSA, CVE) is
    told once, by its PYSEC id when it has one."""
    ordered = sorted(advisories, key=lambda a: not a.id.startswith("PYSEC"))
    seen: set[str] = set()
    found = []
    for item in ordered:
        names = {item.id, *item.aliases}
        if names & seen:
            continue
        seen |= names
        found.append(item)
    return found
