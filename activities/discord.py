"""Discord activity: notices to a project's channel through its webhook."""

from collections.abc import Callable

from temporalio import activity

from activities.messages import DiscordNoticeInput, DiscordNoticeResult
from integrations.discord.client import DiscordClient


class DiscordActivities:
    """Sends notices; webhook URLs are secrets, so they are looked up here, not passed in."""

    def __init__(self, discord: DiscordClient, webhook_for: Callable[[str], str | None]) -> None:
        self._discord = discord
        self._webhook_for = webhook_for

    @activity.defn
    async def notify_discord(self, inp: DiscordNoticeInput) -> DiscordNoticeResult:
        """Send one notice, or nothing when the project has no Discord webhook."""
        url = self._webhook_for(inp.jira_project)
        if not url:
            return DiscordNoticeResult(sent=False)
        await self._discord.send(url, inp.content)
        return DiscordNoticeResult(sent=True)
