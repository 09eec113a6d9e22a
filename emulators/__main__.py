"""Run the emulators as a process: `python -m emulators --port 8100 --state-dir .data/emulators`.

`python -m emulators add-repo PATH` and `add-issue PROJECT SUMMARY` add to running emulators.
"""

import argparse
import logging
import sys
from pathlib import Path

import uvicorn

from access.admin import AdminAccess
from config import EmulatorProcessSettings, get_settings
from emulators.app import DEFAULT_SEED, create_app
from emulators.cli import COMMANDS
from emulators.cli import main as cli_main
from emulators.github.webhooks import GitHubWebhooks
from emulators.gitlab.webhooks import GitLabWebhooks
from emulators.jira.webhooks import JiraWebhooks
from faults.injector import FaultInjector


def main(argv: list[str] | None = None) -> None:
    """Parse the command line and serve until interrupted."""
    settings = get_settings(EmulatorProcessSettings)
    parser = argparse.ArgumentParser(
        prog="python -m emulators",
        description="Local Jira, GitHub, GitLab, git hosting and Discord.",
    )
    parser.add_argument("--host", default=settings.emulator_host)
    parser.add_argument("--port", type=int, default=settings.emulator_port)
    parser.add_argument("--state-dir", type=Path, default=settings.emulator_state_dir)
    parser.add_argument(
        "--seed", type=Path, default=settings.emulator_seed_file or DEFAULT_SEED,
        help="seed data (JSON); default TICKETSMITH_EMULATOR_SEED_FILE or the shipped seed",
    )  # fmt: skip
    parser.add_argument(
        "--reset", action="store_true", help="wipe the state directory and reseed first"
    )
    parser.add_argument(
        "--faults",
        type=Path,
        default=settings.emulator_faults_file,
        help="faults to inject from the start (JSON); default: the seed file's",
    )
    parser.add_argument(
        "--webhook-url",
        default=settings.emulator_webhook_url,
        help="where to send Jira webhooks, signed with TICKETSMITH_WEBHOOK_SECRET",
    )
    parser.add_argument(
        "--github-webhook-url",
        default=settings.emulator_github_webhook_url,
        help="where to send GitHub webhooks, signed with TICKETSMITH_WEBHOOK_SECRET",
    )
    parser.add_argument(
        "--gitlab-webhook-url",
        default=settings.emulator_gitlab_webhook_url,
        help="where to send GitLab webhooks, with TICKETSMITH_WEBHOOK_SECRET as X-Gitlab-Token",
    )
    parser.add_argument(
        "--ci",
        action=argparse.BooleanOptionalAction,
        default=settings.emulator_ci,
        help="run each repository's test command on every push and report a check run",
    )
    parser.add_argument(
        "--ci-reporter",
        choices=["checks", "actions"],
        default=settings.emulator_ci_reporter,
        help="report CI as a check run (checks) or as a GitHub Actions workflow run (actions)",
    )
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args(argv)
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    admin = AdminAccess.from_settings(settings)
    if notice := admin.start_notice(args.host):
        logging.getLogger("ticketsmith.emulators").warning("%s", notice)
    app = create_app(
        args.state_dir,
        seed_file=args.seed,
        reset=args.reset,
        faults=FaultInjector.from_file(args.faults) if args.faults else None,
        webhooks=JiraWebhooks(
            args.webhook_url, secret, server=settings.emulator_jira_server_webhooks
        ),
        github_webhooks=GitHubWebhooks(args.github_webhook_url, secret),
        gitlab_webhooks=GitLabWebhooks(args.gitlab_webhook_url, secret),
        ci=args.ci,
        ci_reporter=args.ci_reporter,
        admin=admin,
    )
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level)


if __name__ == "__main__":
    if sys.argv[1:2] and sys.argv[1] in COMMANDS:
        sys.exit(cli_main(sys.argv[1:]))
    main()
