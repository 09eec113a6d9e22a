"""The model factory (openai | offline | local) and the scripted model tests drive graphs with."""

import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field, PrivateAttr, SecretStr

from graphs.offline import InProcessChatModel, OfflineChatModel, usage
from llm.call_seeds import SeededChatOpenAI
from llm.structured import trim

PROVIDERS = ("openai", "offline", "local")
NO_KEY = "not-needed"

Answer = str | AIMessage | Callable[[list[BaseMessage]], str | AIMessage]


def capped(model: BaseChatModel, tokens: int) -> BaseChatModel:
    """The model with its answers bounded to `tokens` (or its own bound, when tighter); a
    model that has no bound to set, as it is."""
    if "max_tokens" not in type(model).model_fields:
        return model
    current = getattr(model, "max_tokens", None)
    return model.model_copy(update={"max_tokens": min(tokens, current or tokens)})


def make_chat_model(
    provider: str,
    *,
    api_key: str | None = None,
    base_url: str | None = None,
    model: str = "gpt-4o-mini",
    temperature: float = 0.0,
    seed: int | None = None,
) -> BaseChatModel:
    """The chat model for a provider; the client never retries (Temporal owns retries)."""
    if provider == "offline":
        return OfflineChatModel()
    if provider == "openai":
        if api_key is None and base_url is None and not os.environ.get("OPENAI_API_KEY"):
            raise ValueError("provider 'openai' needs an api_key (or OPENAI_API_KEY) or a base_url")
        key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY", NO_KEY)
        return SeededChatOpenAI(
            model=model,
            temperature=temperature,
            seed=seed,
            api_key=SecretStr(key),
            base_url=base_url,
            max_retries=0,
        )
    if provider == "local":  # the local server's address comes from the settings
        from localmodel.chat import settings_chat_model

        return settings_chat_model(temperature, seed)
    raise ValueError(
        f"unknown model provider {provider!r}; valid providers: {', '.join(PROVIDERS)}"
    )


class ScriptExhaustedError(RuntimeError):
    """The scripted model was asked more often than its script has answers."""


class ScriptedChatModel(InProcessChatModel):
    """Answers from a script, in order, and records every prompt it received.

    An answer is a string or an AIMessage (to script tool calls), or a function of the
    prompt's messages returning one.
    """

    answers: list[Any]
    received: list[list[BaseMessage]] = Field(default_factory=list)
    _next: int = PrivateAttr(default=0)
    _lock: threading.Lock = PrivateAttr(default_factory=threading.Lock)

    def __init__(self, answers: Sequence[Answer], **kwargs: Any) -> None:
        super().__init__(answers=list(answers), **kwargs)  # type: ignore[call-arg]

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def calls(self) -> int:
        """How many answers have been given."""
        return self._next

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> "ScriptedChatModel":
        """Tools are ignored: the script decides what comes back."""
        return self

    def _answer(self, messages: list[BaseMessage]) -> ChatResult:
        with self._lock:
            self.received.append(list(messages))
            if self._next >= len(self.answers):
                last = messages[-1].text if messages else ""
                raise ScriptExhaustedError(
                    f"ScriptedChatModel: the script has {len(self.answers)} answers and "
                    f"call {self._next + 1} asked for another; last message: {trim(last, 300)}"
                )
            answer = self.answers[self._next]
            self._next += 1
        result = answer(messages) if callable(answer) else answer
        if isinstance(result, AIMessage):
            message = result.model_copy(
                update={"usage_metadata": usage(messages, result.text + str(result.tool_calls))}
            )
        else:
            text = str(result)
            message = AIMessage(content=text, usage_metadata=usage(messages, text))
        return ChatResult(generations=[ChatGeneration(message=message)])
