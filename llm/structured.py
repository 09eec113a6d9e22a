"""Ask a model for an answer that parses into a pydantic model, retrying bad answers."""

import json
import re
from typing import Any, TypeVar

import json_repair
import openai
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI
from pydantic import BaseModel, BeforeValidator, ValidationError

from llm.answer_shape import outline
from llm.metering import count_call

M = TypeVar("M", bound=BaseModel)

RAW_LIMIT = 2000
_FENCED_JSON = re.compile(r"```(?:json|JSON)?[ \t]*\n(.*?)\n[ \t]*```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class ModelAnswerError(ValueError):
    """The model kept answering something that does not parse into the expected schema."""

    def __init__(self, message: str, raw: str, tokens: int = 0, reason: str = "") -> None:
        super().__init__(message)
        self.raw = raw
        self.tokens = tokens  # what the failed attempts cost: a budget counts them too
        self.reason = reason or message  # why the last answer could not be used


def capped(limit: int) -> BeforeValidator:
    """A validator that cuts a list to `limit` items before the schema's length check."""
    return BeforeValidator(lambda value: value[:limit] if isinstance(value, list) else value)


def cut_text(limit: int) -> BeforeValidator:
    """A validator that cuts a string to `limit` characters before the schema's length check.

    With `Field(max_length=limit)` beside it the bound is in the JSON schema too, so a local
    server's grammar stops a looping answer there instead of at the token limit.
    """
    return BeforeValidator(lambda value: value[:limit] if isinstance(value, str) else value)


def trim(text: str, limit: int = RAW_LIMIT) -> str:
    """The text, cut in the middle when longer than `limit` characters."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n...[{len(text) - limit} characters cut]...\n{text[-half:]}"


def extract_json(text: str) -> Any:
    """The JSON value in a model's text: the whole text, a ```json block, or the first {...}."""
    cleaned = _THINK.sub("", text).strip()
    candidates = [cleaned, *(m.group(1) for m in _FENCED_JSON.finditer(cleaned))]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            continue
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", cleaned):
        try:
            value, _ = decoder.raw_decode(cleaned, match.start())
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    # Last: a repair of near-JSON (single quotes, trailing commas, an object cut short); the
    # schema still validates what comes out.
    repaired = json_repair.loads(cleaned[cleaned.find("{") :]) if "{" in cleaned else None
    if isinstance(repaired, dict) and repaired:
        return repaired
    raise ValueError("the answer holds no JSON object")


def parse_answer(text: str, schema: type[M]) -> M:
    """The text's JSON validated by the schema; ValueError saying what is wrong otherwise."""
    value = extract_json(text)
    try:
        return schema.model_validate(value)
    except ValidationError as error:
        raise ValueError(trim(str(error), 800)) from error


def schema_instructions(schema: type[BaseModel]) -> str:
    """The answer format appended to a system prompt."""
    return (
        "Answer with one JSON object and nothing else, shaped like this "
        f"(notes after // are not part of it):\n{outline(schema)}"
    )


def structured_messages(system: str, human: str, schema: type[BaseModel]) -> list[BaseMessage]:
    """The first messages of a structured call: the task, told the schema, then its input."""
    return [
        SystemMessage(content=f"{system}\n\n{schema_instructions(schema)}"),
        HumanMessage(content=human),
    ]


async def ask_structured(
    model: BaseChatModel, system: str, human: str, schema: type[M], retries: int = 2
) -> tuple[M, int]:
    """Ask until the answer parses into `schema`; returns it and the tokens used."""
    messages = structured_messages(system, human, schema)
    use_schema_mode = isinstance(model, ChatOpenAI)
    tokens = 0
    raw_text = ""
    error = ""
    for _ in range(retries + 1):
        parsed: M | None = None
        raw: BaseMessage | None = None
        ran_on = False
        if use_schema_mode:
            try:
                parsed, raw = await _ask_with_schema(model, messages, schema)
            except openai.BadRequestError:
                use_schema_mode = False  # the server has no JSON-schema mode: use text
            except ValidationError:
                # The server answered outside the schema it was given (it ignores the mode):
                # ask in text, where an unusable answer is told why and asked again.
                use_schema_mode = False
            except openai.LengthFinishReasonError as cut:
                # A small model can loop until its limit: ask again, shorter, in this call.
                raw, ran_on = cut_answer(cut), True
        if raw is None:
            raw = await model.ainvoke(messages)
        tokens += count_call(raw, messages)
        raw_text = raw.text
        if parsed is not None:
            return parsed, tokens
        try:
            if ran_on:
                raise ValueError("the answer ran on past its length limit; make it much shorter")
            return parse_answer(raw_text, schema), tokens
        except ValueError as exc:
            error = str(exc)
        messages = [
            *messages,
            AIMessage(content=raw_text),
            HumanMessage(
                content=f"That answer could not be used: {error}\n"
                "Answer again with only the JSON object, matching the schema exactly."
            ),
        ]
    raise ModelAnswerError(
        f"{schema.__name__}: no usable answer after {retries + 1} attempts ({error}). "
        f"Raw answer: {trim(raw_text)}",
        raw=raw_text,
        tokens=tokens,
        reason=f"{error}, after {retries + 1} attempts",
    )


def cut_answer(cut: openai.LengthFinishReasonError) -> AIMessage:
    """What the model wrote before its limit cut it, with the tokens the call used."""
    usage = cut.completion.usage
    sent, total = (usage.prompt_tokens, usage.total_tokens) if usage else (0, 0)
    text = (cut.completion.choices[0].message.content or "") if cut.completion.choices else ""
    metadata = {"input_tokens": sent, "output_tokens": total - sent, "total_tokens": total}
    return AIMessage(content=trim(text, 300), usage_metadata=metadata)


async def _ask_with_schema(
    model: BaseChatModel, messages: list[BaseMessage], schema: type[M]
) -> tuple[M | None, BaseMessage]:
    """One call in the model's JSON-schema mode: the parsed answer (or None) and the raw one."""
    runnable = model.with_structured_output(
        schema, method="json_schema", include_raw=True, strict=True
    )
    result = await runnable.ainvoke(messages)
    if not isinstance(result, dict):
        raise TypeError(f"structured output returned {type(result).__name__}, not a dict")
    parsed = result.get("parsed")
    raw = result["raw"]
    return (parsed if isinstance(parsed, schema) else None), raw
