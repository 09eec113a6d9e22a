"""A seed for every model call, drawn from the run's seed: a run can be repeated, and a
prompt asked again samples anew."""

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from langchain_core.language_models import LanguageModelInput
from langchain_openai import ChatOpenAI

# A server reseeds its sampler on every request: sent the run's seed each time, a prompt asked
# again warmer came back word for word, so every retry that relies on sampling was lost.
REMEMBERED_PROMPTS = 4096
SEED_BITS = 31


def digest(*parts: object) -> str:
    """A stable digest of the parts, in order."""
    return hashlib.sha256("\0".join(str(part) for part in parts).encode()).hexdigest()


class CallSeeds:
    """Counts how often each prompt was sent, so the n-th sending gets a seed of its own."""

    def __init__(self, remembered: int = REMEMBERED_PROMPTS) -> None:
        self._sent: OrderedDict[str, int] = OrderedDict()
        self._remembered = remembered
        self._lock = threading.Lock()

    def seed(self, run_seed: int, prompt: str, temperature: float | None) -> int:
        """The seed of this sending of `prompt`: the same for the same run seed, prompt,
        temperature and count of earlier sendings; another for each sending after."""
        key = digest(run_seed, temperature, prompt)
        with self._lock:
            sent = self._sent.pop(key, 0)
            self._sent[key] = sent + 1
            while len(self._sent) > self._remembered:  # the oldest prompts are forgotten
                self._sent.popitem(last=False)
        return int(digest(key, sent), 16) % (1 << SEED_BITS)


CALL_SEEDS = CallSeeds()


class SeededChatOpenAI(ChatOpenAI):
    """ChatOpenAI whose `seed`, when set, is the run's seed: each request carries a seed of
    its own drawn from it."""

    def _get_request_payload(
        self, input_: LanguageModelInput, *, stop: list[str] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        payload: dict[str, Any] = super()._get_request_payload(input_, stop=stop, **kwargs)
        if payload.get("seed") is not None:
            prompt = json.dumps(payload.get("messages") or payload.get("input"), sort_keys=True)
            payload["seed"] = CALL_SEEDS.seed(payload["seed"], prompt, payload.get("temperature"))
        return payload
