import pytest

from calc.cli import main


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["add", "2", "3"], "5"),
        (["sub", "2", "3"], "-1"),
        (["mul", "4", "2.5"], "10"),
        (["div", "7", "2"], "3.5"),
    ],
)
def test_commands(argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    assert capsys.readouterr().out.strip() == expected


def test_divide_by_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["div", "1", "0"]) == 1
    assert "cannot divide by zero" in capsys.readouterr().err


def test_unknown_command() -> None:
    with pytest.raises(SystemExit):
        main(["mod", "1", "2"])
