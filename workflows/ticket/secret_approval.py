"""A push the credential scan held back, as the ticket workflow sees it: the findings read from
the failed push, what the ticket says, and what an approver may let through (never one of the
worker's own secret values)."""

from temporalio.exceptions import ActivityError, ApplicationError

from activities.messages import SecretFinding

# The implementation's push that the scan holds back waits for an approver (not a failure).
SECRETS_APPROVAL = "secrets-approval"
SECRETS_FOUND = "SecretsFound"  # the push activity's failure type (integrations.security.push_scan)
ALLOWLIST = ".ticketsmith/secrets-allowed"


def secrets_in(err: ActivityError) -> list[SecretFinding]:
    """The findings of a push the credential scan held back; none for any other failure."""
    cause = err.cause
    if not isinstance(cause, ApplicationError) or cause.type != SECRETS_FOUND:
        return []
    details = cause.details[0] if cause.details else []
    return [SecretFinding.model_validate(item) for item in details]


def findings_in_words(found: list[SecretFinding]) -> str:
    """`path` line N (kind); ... for a one-line status."""
    return "; ".join(f"`{f.path}` line {f.line} ({f.kind})" for f in found)


def approval_comment(key: str, branch: str, found: list[SecretFinding]) -> str:
    """The Jira comment that asks an approver to let the findings through, or not."""
    lines = [
        "### Nothing was pushed: the change holds what looks like a credential",
        "",
        f"The scan of what `{branch}` would get found (values not shown):",
        "",
        *(f"- `{f.path}` line {f.line}: {f.kind}" for f in found),
        "",
        "If these are test fixtures or no real credential, an approver can push the change as "
        f"it is: reply `/approve` (or `starter.py approve {key}`). `/reject <why>` stops the "
        "ticket, with the branch left as it is. To keep such fixtures from stopping later "
        f"tickets, list their paths in `{ALLOWLIST}` on the base branch.",
    ]
    return "\n".join(lines)


def waiting_for(found: list[SecretFinding]) -> str:
    """What the ticket waits for, with where the findings are."""
    return f"an approver to push what looks like a credential: {findings_in_words(found)}"


def not_approvable(branch: str, found: list[SecretFinding]) -> ApplicationError:
    """The failure of a push that holds one of the worker's own secret values."""
    own = findings_in_words([f for f in found if f.own])
    return held_back(
        branch, f"the change holds one of the worker's own secret values (values not shown): "
        f"{own}. Nothing lets those through; ask for the change without them and restart the "
        "ticket",
    )  # fmt: skip


def still_held(branch: str, found: list[SecretFinding]) -> ApplicationError:
    """The failure of an approved push the scan held back again, for findings not approved."""
    return held_back(
        branch, "after the approval the scan still found what looks like a credential that was "
        f"not approved: {findings_in_words(found)}. Restart the ticket once it is taken out or "
        "allowed",
    )  # fmt: skip


def held_back(branch: str, why: str) -> ApplicationError:
    """A push that stays held back: the ticket stops, saying why."""
    return ApplicationError(
        f"Nothing was pushed to `{branch}`: {why}", type=SECRETS_FOUND, non_retryable=True
    )


def rejected(author: str, reason: str) -> ApplicationError:
    """The failure of a ticket whose approver would not push the findings."""
    return ApplicationError(
        f"{author} did not let the change's credential-like values be pushed: {reason}",
        type="SecretsRejected",
        non_retryable=True,
    )
