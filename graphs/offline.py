"""A deterministic chat model for running without any language model; it says so in every answer.

It reads the task from the system message's first line and the inputs from the human
message's ```json block, and answers with heuristics and templates (see offline_tasks).
"""

from abc import abstractmethod
from typing import Any

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatResult

from graphs.offline_tasks import OFFLINE_NOTICE, answer_task
from llm.metering import estimate_tokens
from llm.prompting import read_task


def usage(messages: list[BaseMessage], answer: str) -> UsageMetadata:
    """A deterministic token count for a call: four characters to a token."""
    prompt = sum(estimate_tokens(m.text) for m in messages)
    output = estimate_tokens(answer)
    return UsageMetadata(input_tokens=prompt, output_tokens=output, total_tokens=prompt + output)


class InProcessChatModel(BaseChatModel):
    """A chat model that answers in this process, the same way sync or async."""

    @abstractmethod
    def _answer(self, messages: list[BaseMessage]) -> ChatResult:
        """The answer to a prompt."""

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._answer(messages)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        return self._answer(messages)


class OfflineChatModel(InProcessChatModel):
    """Answers every graph task without a language model, and labels the answers as offline."""

    @property
    def _llm_type(self) -> str:
        return "offline"

    def _answer(self, messages: list[BaseMessage]) -> ChatResult:
        task, inputs = read_task(messages)
        human = next((m.text for m in reversed(messages) if isinstance(m, HumanMessage)), "")
        text = answer_task(task, inputs, human)
        message = AIMessage(content=text, usage_metadata=usage(messages, text))
        return ChatResult(generations=[ChatGeneration(message=message)])


def is_offline(model: BaseChatModel) -> bool:
    """Whether answers from this model were produced offline."""
    return isinstance(model, OfflineChatModel)


__all__ = ["OFFLINE_NOTICE", "InProcessChatModel", "OfflineChatModel", "is_offline", "usage"]
