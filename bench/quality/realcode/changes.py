"""The alteration that turns a project's original modules into a ticket's code."""

from bench.quality.realcode.sources import Change, Place, SourceError


def module_of(change: Change, modules: list[Place]) -> Place:
    """The module a change edits (named by its sdist path or its repository path)."""
    for module in modules:
        if change.path in (module.path, module.target):
            return module
    listed = ", ".join(m.path for m in modules)
    raise SourceError(f"change path {change.path!r} is not one of the modules ({listed})")


def apply_changes(
    originals: dict[str, str], changes: list[Change], modules: list[Place]
) -> dict[str, str]:
    """The changed modules' texts by repository path (only the modules the changes touch)."""
    changed: dict[str, str] = {}
    for change in changes:
        target = module_of(change, modules).target
        text = changed.get(target, originals[target])
        found = text.count(change.find)
        if found != 1:
            where = "does not occur" if found == 0 else f"occurs {found} times"
            raise SourceError(
                f"change of {change.path}: `find` {where} in the file; it must occur exactly "
                f"once (copy it from the original, with more context if it repeats): "
                f"{change.find[:80]!r}"
            )
        changed[target] = text.replace(change.find, change.replace)
    for target, text in changed.items():
        if text == originals[target]:
            raise SourceError(f"the changes leave {target} as it was; `replace` must differ")
    return changed
