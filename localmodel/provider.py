"""Which model the agents talk to: the provider the settings name, or with `auto` OpenAI when a
key is set, else the local model when it is installed, else the offline one."""

from typing import TYPE_CHECKING

from localmodel.layout import layout_for

if TYPE_CHECKING:
    from config.models import ModelSettings


def resolved_model_provider(settings: "ModelSettings") -> str:
    """The provider: an explicit choice, else openai with a key, else local if installed."""
    if settings.model_provider != "auto":
        return settings.model_provider
    if settings.openai_api_key:
        return "openai"
    return "local" if layout_for(settings).installed() else "offline"
