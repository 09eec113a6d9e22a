"""bench.ablation: the loop alone under each step setting, scored with the hidden tests."""

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from bench.ablation import (
    STEPS,
    LoopRun,
    cli,
    dev_tickets,
    loop_options,
    step_table,
    ticket_table,
)
from bench.quality.reference_plan import reference_plan
from bench.quality.splits import DEV, TEST, load_splits
from bench.quality.tickets import load_tickets


def run(ticket: str, step: str, seed: int, resolved: bool, tokens: int = 100) -> LoopRun:
    return LoopRun(ticket, step, seed, resolved, int(resolved) * 2, 2, 1, tokens, 10.0)


def test_a_step_setting_changes_only_its_own_option_of_the_defaults() -> None:
    defaults = loop_options("defaults")
    for step, change in STEPS.items():
        options = loop_options(step)
        assert {k: v for k, v in options.items() if defaults[k] != v} == change, step


def test_the_plan_names_every_file_the_reference_changes() -> None:
    (ticket,) = load_tickets(["cart-discount"])
    expected = sorted(
        str(p.relative_to(ticket.reference_dir)) for p in ticket.reference_dir.rglob("*.py")
    )
    plan = reference_plan(ticket, ticket.repo_dir)
    assert [f.path for f in plan.files] == expected
    assert all(f.action == "modify" for f in plan.files if (ticket.repo_dir / f.path).is_file())


def test_the_step_table_gives_the_rate_over_seeds_and_its_spread() -> None:
    runs = [
        run("a", "defaults", 1, True), run("b", "defaults", 1, True),
        run("a", "defaults", 2, True), run("b", "defaults", 2, False),
        run("a", "no-example-tests", 1, False, tokens=300), run("b", "no-example-tests", 1, False),
    ]  # fmt: skip
    rows = step_table(runs, ["defaults", "no-example-tests"]).splitlines()
    assert rows[1].split()[:4] == ["defaults", "3/4", "75%", "35%"]
    assert rows[2].split()[:4] == ["no-example-tests", "0/2", "0%", "-"]
    assert "200" in rows[2].split()[5]  # tokens per run: (300 + 100) / 2
    table = ticket_table(runs, ["defaults", "no-example-tests"], ["a", "b", "c"]).splitlines()
    assert table[1].split() == ["a", "2/2", "(4/4)", "0/1", "(0/2)"]
    assert table[3].split() == ["c", "-", "-"]  # not run


def test_an_offline_ablation_runs_the_loop_and_keeps_its_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--model", "offline", "--steps", "defaults,no-example-tests", "slug-separator"]
    assert cli(argv, results_dir=tmp_path) == 0
    out = capsys.readouterr().out
    assert "slug-separator" in out and "no-example-tests" in out
    (figures,) = tmp_path.glob("*-ablation.json")
    kept = json.loads(figures.read_text())
    assert [(r["ticket"], r["step"]) for r in kept["results"]] == [
        ("slug-separator", "defaults"), ("slug-separator", "no-example-tests"),
    ]  # fmt: skip
    assert all(r["hidden_total"] > 0 and r["revisions"] >= 1 for r in kept["results"])
    assert all(r["notes"] for r in kept["results"])
    assert kept["max_revisions"] == 4 and kept["model"] == "offline"
    assert kept["commit"] and kept["commit"] != "unknown"


def test_figures_files_are_reported_again_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = tmp_path / "a-ablation.json", tmp_path / "b-ablation.json"
    first.write_text(json.dumps({"results": [asdict(run("a", "defaults", 1, True))]}))
    second.write_text(json.dumps({"results": [asdict(run("a", "no-example-tests", 1, False))]}))
    assert cli(["--report", str(first), str(second)]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[1].split() == ["a", "1/1", "(2/2)", "0/1", "(0/2)"]
    assert cli(["--report", str(first), "--show", "a"]) == 0
    assert "## a defaults seed 1: resolved" in capsys.readouterr().out
    (tmp_path / "c.json").write_text("{}")
    assert cli(["--report", str(tmp_path / "c.json")]) == 2
    assert "not a figures file" in capsys.readouterr().err


def test_an_unknown_step_is_refused_with_the_known_ones(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli(["--model", "offline", "--steps", "defaults,warp-drive"])
    assert "warp-drive" in capsys.readouterr().err


def test_an_unknown_ticket_is_named_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(["--model", "offline", "no-such-ticket"], results_dir=tmp_path) == 2
    assert "no-such-ticket" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())


def test_the_test_split_is_never_ablated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    held_out = load_splits().tickets_of(TEST, load_tickets())[0].name
    assert cli(["--model", "offline", held_out], results_dir=tmp_path) == 2
    assert f"{held_out} belong to the test split" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
    dev = {t.name for t in dev_tickets([])}
    assert dev == {t.name for t in load_splits().tickets_of(DEV, load_tickets())}


def test_a_run_that_crashes_is_its_own_row_and_the_bench_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    async def crash(*args: object) -> LoopRun:
        raise RuntimeError("the worker fell over")

    monkeypatch.setattr("bench.ablation.run_loop", crash)
    argv = ["--model", "offline", "--steps", "defaults,whole-files", "slug-separator"]
    assert cli(argv, results_dir=tmp_path) == 0
    assert "the loop failed" in capsys.readouterr().out
    (figures,) = tmp_path.glob("*-ablation.json")
    kept = json.loads(figures.read_text())["results"]
    assert [r["step"] for r in kept] == ["defaults", "whole-files"]
    assert all("RuntimeError: the worker fell over" in r["notes"] for r in kept)
