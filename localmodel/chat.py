"""The chat model for the local server: ChatOpenAI that fits its context and logs every call."""

import logging
import re
import time
from collections.abc import AsyncGenerator, Mapping
from typing import Any, cast

import httpx
from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.messages import BaseMessage, HumanMessage, message_chunk_to_message
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import SecretStr

from config import get_settings
from config.models import ModelSettings
from llm.call_seeds import SeededChatOpenAI
from llm.metering import estimate_tokens
from llm.prompting import without_inputs
from llm.structured import trim
from localmodel.context import Fitted, fit_messages
from localmodel.loops import CUT_REASONS, LOOPED, repeating_block, repeating_run
from localmodel.server import LOCAL_MODEL_ALIAS, base_url

log = logging.getLogger("ticketsmith.model")
_TASK = re.compile(r"^task:\s*([a-z_]+)", re.MULTILINE)
CALL_TIMEOUT_S = 900.0  # one slot: parallel calls queue at the server and wait their turn
# Answers that are a few sentences or a short list: a small model that loops runs to the end
# of its context otherwise, minutes of a slow machine for an answer that cannot be used.
# A check of a criterion is a call and a value: eight of them fit in 768 tokens.
# The plan and the requirements run 200-700 tokens; a plan that looped ran on to the end of the
# context (1,400 tokens, two and a half minutes) before it was asked again, shorter. A review
# is a verdict and a few fixes (35-151 tokens in a run of 18 tickets); one that looped ran on
# past 1,300 tokens until the ticket's deadline.
ANSWER_CAPS = {
    "analysis": 512, "questions": 1024, "judge_comments": 1024,
    "acceptance_checks": 768,
    "triage": 768, "requirements": 768, "plan": 1024, "review": 512,
}  # fmt: skip
# Tasks whose prompt text says all its inputs block does. Shown that JSON block last, the
# small model answered with it in place of the file's code, so the server is not sent it.
TEXT_ONLY_TASKS = {"implement_file"}
CUT_TAIL_CHARS = 200
# Answers streamed and watched for a loop: code, where a looping model runs longest.
WATCHED_TASKS = {"implement_file"}


def ending_of(err: Exception) -> str:
    """How the answer of a call cut at its length limit ended, for the log ("" otherwise)."""
    completion = getattr(err, "completion", None)
    choices = getattr(completion, "choices", None) or []
    text = choices[0].message.content if choices else None
    return f"; it ended {text[-CUT_TAIL_CHARS:]!r}" if text else ""


def shown_messages(messages: list[BaseMessage]) -> list[BaseMessage]:
    """The messages as the server gets them: text-only tasks lose their inputs block."""
    if task_of(messages) not in TEXT_ONLY_TASKS:
        return messages
    return [
        HumanMessage(content=without_inputs(m.text)) if isinstance(m, HumanMessage) else m
        for m in messages
    ]


def task_of(messages: list[BaseMessage]) -> str:
    """The task a prompt carries on its system message's first line, or `other`."""
    first = messages[0].text if messages else ""
    match = _TASK.match(first.strip())
    return match.group(1) if match else "other"


def finish_reason(result: ChatResult) -> str:
    """Why the server stopped the answer ("stop", "length"), as far as the result says."""
    if not result.generations:
        return ""
    generation = result.generations[0]
    info = getattr(generation, "generation_info", None) or {}
    return str(
        info.get("finish_reason") or generation.message.response_metadata.get("finish_reason", "")
    )


def cached_tokens(usage: Mapping[str, Any]) -> int:
    """The prompt tokens the server read from its prompt cache, where it reports them
    (llama.cpp's server and OpenAI do, as `prompt_tokens_details.cached_tokens`)."""
    details = usage.get("input_token_details") or {}
    return int(details.get("cache_read") or 0)


def log_call(task: str, fitted: Fitted, result: ChatResult, seconds: float, context: int) -> None:
    """One line per call: tokens in and out (as the server counted them) and time."""
    message = result.generations[0].message if result.generations else None
    usage = getattr(message, "usage_metadata", None) or {}
    prompt = int(usage.get("input_tokens", fitted.prompt_tokens))
    answer = int(usage.get("output_tokens", 0))
    log.info(
        "model call task=%s prompt_tokens=%d completion_tokens=%d seconds=%.1f "
        "tokens_per_s=%.1f estimated_prompt_tokens=%d cut_tokens=%d cached_tokens=%d",
        task, prompt, answer, seconds, answer / seconds if seconds else 0.0,
        fitted.prompt_tokens, fitted.cut_tokens, cached_tokens(usage),
    )  # fmt: skip
    reason = finish_reason(result)
    if message is not None and reason in CUT_REASONS:
        # The end of a cut answer shows whether the model looped or the bound was too tight.
        why = "stopped, its lines loop," if reason == LOOPED else "cut at its limit"
        log.warning(
            "answer of task %s %s after %d tokens; it ended %r",
            task, why, answer, message.text[-CUT_TAIL_CHARS:],
        )  # fmt: skip
    if fitted.cut_tokens:
        log.warning(
            "prompt of task %s windowed by about %d tokens to fit a %d-token context",
            task, fitted.cut_tokens, context,
        )  # fmt: skip
    if log.isEnabledFor(logging.DEBUG):  # TICKETSMITH_LOG_LEVEL=DEBUG: what the model saw and said
        shown = "\n\n".join(f"[{m.type}]\n{m.text}" for m in fitted.messages)
        log.debug("prompt of task %s:\n%s", task, shown)
        log.debug("answer of task %s:\n%s", task, message.text if message is not None else "")


class LocalChatModel(SeededChatOpenAI):
    """ChatOpenAI for a small-context server: prompts fitted, answers bounded, calls seeded
    one by one (`SeededChatOpenAI`) and logged."""

    context_tokens: int = 4096
    min_answer_tokens: int = 768

    def _fit(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> Fitted:
        fitted = fit_messages(shown_messages(messages), self.context_tokens, self.min_answer_tokens)
        cap = ANSWER_CAPS.get(task_of(messages), fitted.answer_tokens)
        if self.max_tokens:  # a bound the caller set on this copy of the model
            cap = min(cap, self.max_tokens)
        kwargs.setdefault("max_tokens", min(fitted.answer_tokens, cap))
        return fitted

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        fitted = self._fit(messages, kwargs)
        started = time.monotonic()
        result = super()._generate(fitted.messages, stop, run_manager, **kwargs)
        log_call(task_of(messages), fitted, result, time.monotonic() - started, self.context_tokens)
        return result

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        fitted = self._fit(messages, kwargs)
        started = time.monotonic()
        try:
            if task_of(messages) in WATCHED_TASKS:
                result = await self._watched(fitted, stop, run_manager, **kwargs)
            else:
                result = await super()._agenerate(fitted.messages, stop, run_manager, **kwargs)
        except Exception as err:
            log.warning(
                "model call task=%s failed after %.1f s: %s%s",
                task_of(messages), time.monotonic() - started, trim(repr(err), 300),
                ending_of(err),
            )  # fmt: skip
            raise
        log_call(task_of(messages), fitted, result, time.monotonic() - started, self.context_tokens)
        return result

    async def _watched(
        self,
        fitted: Fitted,
        stop: list[str] | None,
        run_manager: AsyncCallbackManagerForLLMRun | None,
        **kwargs: Any,
    ) -> ChatResult:
        """The answer streamed and stopped as soon as it loops (closing the stream stops the
        server's generation too)."""
        merged: ChatGenerationChunk | None = None
        text, looped = "", ""
        stream = cast(
            AsyncGenerator[ChatGenerationChunk],
            self._astream(fitted.messages, stop, run_manager, stream_usage=True, **kwargs),
        )
        try:
            async for chunk in stream:
                merged = chunk if merged is None else merged + chunk
                text += chunk.text
                lines = repeating_block(text) if "\n" in chunk.text else ""
                if looped := lines or repeating_run(text):
                    break
        finally:
            await stream.aclose()
        if merged is None:
            raise ValueError("the local model's stream ended without an answer")
        info = dict(merged.generation_info or {})
        message = message_chunk_to_message(merged.message)
        if looped:
            info["finish_reason"] = LOOPED
            written = estimate_tokens(text)
            message.usage_metadata = {  # type: ignore[attr-defined]
                "input_tokens": fitted.prompt_tokens,
                "output_tokens": written,
                "total_tokens": fitted.prompt_tokens + written,
            }
        return ChatResult(generations=[ChatGeneration(message=message, generation_info=info)])


def fresh_connections() -> httpx.AsyncClient:
    """An HTTP client that opens a connection per call and keeps none idle.

    A call sent on an idle connection the server had just closed failed with "Server
    disconnected without sending a response" (and, never retried here, failed its activity);
    a new connection to a local server costs well under a millisecond.
    """
    limits = httpx.Limits(max_keepalive_connections=0)
    return httpx.AsyncClient(timeout=CALL_TIMEOUT_S, limits=limits)


def local_chat_model(
    base_url: str, *, context: int = 4096, temperature: float = 0.0, **kwargs: Any
) -> LocalChatModel:
    """The chat model for a local OpenAI-compatible server; it never retries (Temporal does)."""
    kwargs.setdefault("http_async_client", fresh_connections())
    return LocalChatModel(
        model=LOCAL_MODEL_ALIAS,
        base_url=base_url,
        api_key=SecretStr("not-needed"),
        temperature=temperature,
        max_retries=0,
        timeout=CALL_TIMEOUT_S,
        context_tokens=context,
        **kwargs,
    )


def settings_chat_model(temperature: float = 0.0, seed: int | None = None) -> LocalChatModel:
    """The chat model for the local server of the process's settings."""
    settings = get_settings(ModelSettings)
    return local_chat_model(
        base_url(settings),
        context=settings.local_model_context,
        temperature=temperature,
        seed=seed,
    )
