"""Birthdays: the next one and the age."""

from datetime import date


def next_birthday(birthday: str, today: date) -> date:
    """The next date (today or later) of a YYYY-MM-DD birthday; 29 February falls on 1 March."""
    born = date.fromisoformat(birthday)
    for year in (today.year, today.year + 1):
        try:
            day = born.replace(year=year)
        except ValueError:
            day = date(year, 3, 1)
        if day >= today:
            return day
    raise AssertionError("unreachable: next year's birthday is always later")


def age(birthday: str, today: date) -> int:
    """Whole years since the birthday."""
    born = date.fromisoformat(birthday)
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))
