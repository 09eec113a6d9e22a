"""How the local model server stands when a run or a ticket starts: its speed, and whether it
is still busy.

Tickets are bounded in minutes, so a slower or busier machine fits fewer revisions in each
and resolves fewer: a run's rate is read beside the speed it ran at. A ticket cut at its
deadline leaves the server reading the prompt of a call nobody waits for any more; the next
ticket's clock starts once the server is idle.
"""

import asyncio
import time

import httpx
from pydantic import BaseModel

from localmodel.server import LOCAL_MODEL_ALIAS

# A fixed prompt of about 500 tokens, and a fixed number of tokens written whatever they say.
PROMPT = "Read this module, then describe it.\n\n" + "".join(
    f"def step_{i}(value: int) -> int:\n    return value * {i} + {i % 7}\n\n" for i in range(40)
)
WRITTEN_TOKENS = 64
TIMEOUT_S = 300.0
IDLE_POLL_S = 1.0


class ModelSpeed(BaseModel):
    """Prompt tokens read and answer tokens written a second, as the server timed them."""

    reading: float
    writing: float

    def line(self) -> str:
        """The speed as the run's header prints it."""
        return (
            f"the model reads {self.reading:.0f} prompt tokens/s and writes "
            f"{self.writing:.1f} tokens/s on this machine now"
        )


async def measure_speed(base_url: str, client: httpx.AsyncClient | None = None) -> ModelSpeed:
    """The speed of one fixed call to the local server (`timings` of its answer)."""
    body = {
        "model": LOCAL_MODEL_ALIAS,
        "messages": [{"role": "user", "content": PROMPT}],
        "max_tokens": WRITTEN_TOKENS,
        "temperature": 0.0,
        "ignore_eos": True,  # llama.cpp: write every token asked for
        "cache_prompt": False,  # read the whole prompt, whatever came before
    }
    async with client or httpx.AsyncClient(timeout=TIMEOUT_S) as http:
        response = await http.post(f"{base_url}/chat/completions", json=body)
        response.raise_for_status()
        timings = response.json().get("timings") or {}
    try:
        return ModelSpeed(
            reading=round(float(timings["prompt_per_second"]), 1),
            writing=round(float(timings["predicted_per_second"]), 1),
        )
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"the server's answer has no usable `timings` ({err!r})") from err


async def busy_slots(server_url: str, client: httpx.AsyncClient) -> int:
    """How many of the server's slots are processing a request (llama.cpp's `/slots`)."""
    response = await client.get(f"{server_url}/slots")
    response.raise_for_status()
    return sum(1 for slot in response.json() if slot.get("is_processing"))


async def wait_until_idle(
    server_url: str, deadline_s: float, client: httpx.AsyncClient | None = None
) -> float:
    """Wait, up to `deadline_s`, until no slot of the server is processing; the seconds
    waited. Raises TimeoutError naming the busy slots when the deadline passes."""
    began = time.monotonic()
    async with client or httpx.AsyncClient(timeout=TIMEOUT_S) as http:
        while busy := await busy_slots(server_url, http):
            if time.monotonic() - began >= deadline_s:
                raise TimeoutError(
                    f"{busy} slot(s) of the model server at {server_url} still busy after "
                    f"{deadline_s:.0f} s"
                )
            await asyncio.sleep(IDLE_POLL_S)
    return time.monotonic() - began
