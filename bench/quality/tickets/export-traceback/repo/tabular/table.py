"""Rows of cells as a plain-text table."""


def column_widths(rows: list[list[str]]) -> list[int]:
    """The width of each column: its longest cell."""
    if not rows:
        return []
    widths = [0] * len(rows[0])
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], len(cell))
    return widths


def render(rows: list[list[str]]) -> str:
    """The rows as lines of left-aligned columns, two spaces apart."""
    widths = column_widths(rows)
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)) for row in rows]
    return "\n".join(line.rstrip() for line in lines)
