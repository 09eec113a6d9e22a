"""gitignore rules: every .gitignore in the tree plus .git/info/exclude, with negation and `**`."""

import re
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Rule:
    """One pattern of the .gitignore in directory `base` ('' for the repository root)."""

    base: str
    regex: re.Pattern[str]
    negate: bool
    dir_only: bool


def _translate(body: str) -> str:
    """A gitignore glob (no leading or trailing slash) as a regular expression."""
    out: list[str] = []
    i = 0
    while i < len(body):
        if body.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif body.startswith("/**", i) and i + 3 == len(body):
            out.append("/.*")
            i += 3
        elif body.startswith("**", i):
            out.append(".*")
            i += 2
        elif body[i] == "*":
            out.append("[^/]*")
            i += 1
        elif body[i] == "?":
            out.append("[^/]")
            i += 1
        elif body[i] == "[" and (end := body.find("]", i + 2)) > 0:
            inner = body[i + 1 : end]
            inner = "^" + inner[1:] if inner.startswith("!") else inner
            out.append(f"[{inner.replace(chr(92), chr(92) * 2)}]")
            i = end + 1
        elif body[i] == "\\" and i + 1 < len(body):
            out.append(re.escape(body[i + 1]))
            i += 2
        else:
            out.append(re.escape(body[i]))
            i += 1
    return "".join(out)


def _trim_trailing_spaces(line: str) -> str:
    """The line without its trailing spaces, but those escaped with a backslash kept (as git)."""
    end = len(line.rstrip(" "))
    backslashes = end - len(line[:end].rstrip("\\"))
    return line[: end + 1] if backslashes % 2 and end < len(line) else line[:end]


def parse_rule(line: str, base: str = "") -> Rule | None:
    """The rule of one .gitignore line, or None for blanks and comments."""
    text = _trim_trailing_spaces(line.rstrip("\r\n"))
    if not text or text.startswith("#"):
        return None
    negate = text.startswith("!")
    if negate:
        text = text[1:]
    elif text.startswith(("\\!", "\\#")):
        text = text[1:]
    dir_only = text.endswith("/")
    body = text.rstrip("/")
    if not body:
        return None
    anchored = "/" in body
    body = body.lstrip("/")
    pattern = _translate(body) if anchored else "(?:.*/)?" + _translate(body)
    return Rule(base=base, regex=re.compile(pattern + r"\Z"), negate=negate, dir_only=dir_only)


class IgnoreRules:
    """The ignore rules met so far in a walk; the last matching rule wins, as in git."""

    def __init__(self, rules: list[Rule] | None = None) -> None:
        self.rules = list(rules or [])

    @classmethod
    def from_patterns(cls, patterns: list[str]) -> "IgnoreRules":
        """Rules from root-level pattern lines."""
        return cls([r for line in patterns if (r := parse_rule(line)) is not None])

    def load(self, repo_dir: Path, base: str = "") -> None:
        """Add the rules of `base/.gitignore` (and of .git/info/exclude for the root)."""
        sources = [repo_dir / base / ".gitignore"]
        if not base:
            sources.insert(0, repo_dir / ".git" / "info" / "exclude")
        for source in sources:
            if source.is_file():
                for line in source.read_text(errors="replace").splitlines():
                    if (rule := parse_rule(line, base)) is not None:
                        self.rules.append(rule)

    def ignored(self, relative: str, is_dir: bool) -> bool:
        """Whether a repository-relative path is ignored."""
        verdict = False
        for rule in self.rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.base:
                if not relative.startswith(rule.base + "/"):
                    continue
                target = relative[len(rule.base) + 1 :]
            else:
                target = relative
            if rule.regex.match(target):
                verdict = not rule.negate
        return verdict
