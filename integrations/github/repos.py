"""Repositories of the authenticated user on GitHub (or the emulator): find or create one."""

from integrations.github.client import SERVICE, GitHubClient, Repository
from integrations.http import raise_for_status


async def authenticated_login(github: GitHubClient) -> str:
    """The login the token belongs to (`GET /user`)."""
    response = await github._http.get("/user")
    raise_for_status(SERVICE, response)
    return str(response.json()["login"])


async def ensure_user_repository(
    github: GitHubClient, name: str, description: str = ""
) -> Repository:
    """The user's repository `name`, created with an initial commit when it does not exist."""
    login = await authenticated_login(github)
    found = await github._http.get(f"/repos/{login}/{name}")
    if found.status_code == 200:
        return Repository.model_validate(found.json())
    created = await github._http.post(
        "/user/repos",
        json={"name": name, "description": description[:300], "auto_init": True},
    )
    if created.status_code == 422 and "already exists" in created.text:
        # Created by an earlier attempt between our look-up and the create: use it.
        return await github.get_repository(f"{login}/{name}")
    raise_for_status(SERVICE, created)
    return Repository.model_validate(created.json())
