"""Print shell exports that make uv use the package indexes pip is configured with.

uv does not read pip's configuration; `make install` evaluates this output before
`uv pip install`, so both resolve from the same places (a mirror, local wheels, constraints).
The translation is the one the sandbox uses (`integrations/environments/indexes.py`); settings
already given to uv in the environment win. Run from the checkout: `python -m deploy.uv_env`.
"""

import shlex

from integrations.environments.indexes import package_sources


def uv_exports() -> dict[str, str]:
    """uv's variables for this machine's indexes, picking the best version across all of them."""
    env = dict(package_sources().env)
    if env.keys() & {"UV_INDEX", "UV_FIND_LINKS"}:
        # pip picks the best version across every index; uv's default stops at the first.
        env.setdefault("UV_INDEX_STRATEGY", "unsafe-best-match")
    return env


if __name__ == "__main__":
    for variable, value in uv_exports().items():
        print(f"export {variable}={shlex.quote(value)}")
