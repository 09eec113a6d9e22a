"""Which files of a review round's change its comments are about, and the change held to them.

On the local model a round asked for a docstring rewrote `divide()` as well, pushed it, and
answered the reviewer "Not done". A round now pushes only files a comment it addressed is
about: an inline comment is about its file, another comment about the files its text names
(any file when it names none).
"""

import re
from pathlib import PurePosixPath

from workflows.review.messages import ReviewComment
from workflows.ticket.messages import FileChange

Verdicts = dict[int, tuple[bool, str]]


def files_named(text: str, paths: list[str]) -> list[str]:
    """The paths a text names, whole or by their file name."""
    named = []
    for path in paths:
        name = re.escape(PurePosixPath(path).name)
        if path in text or re.search(rf"(?<![\w/.-]){name}(?![\w-])", text):
            named.append(path)
    return named


def about(comment: ReviewComment, paths: list[str]) -> list[str]:
    """The paths a comment is about: its own file, else those its text names, else all."""
    if comment.path:
        return [comment.path]
    return files_named(comment.body, paths) or list(paths)


def outside(changes: list[FileChange], comments: list[ReviewComment]) -> list[str]:
    """The changed files no comment is about."""
    paths = [c.path for c in changes]
    wanted = {p for comment in comments for p in about(comment, paths)}
    return [p for p in paths if p not in wanted]


def addressed_files(
    changes: list[FileChange], comments: list[ReviewComment], verdicts: Verdicts
) -> list[str]:
    """The changed files a comment the judgement found addressed is about (one the judgement
    said nothing of counts as addressed: the answers then fall back to the files changed)."""
    paths = [c.path for c in changes]
    addressed = [c for c in comments if verdicts.get(c.id, (True, ""))[0]]
    wanted = {p for comment in addressed for p in about(comment, paths)}
    return [p for p in paths if p in wanted]


def without(changes: list[FileChange], paths: list[str]) -> list[FileChange]:
    """The changes less those of the given paths (their files stay as the branch has them)."""
    return [c for c in changes if c.path not in paths]
