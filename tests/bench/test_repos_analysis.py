"""bench-repos' analysis columns: the product's analysis of a source distribution's repository."""

import tarfile
from pathlib import Path

from bench.repos import NOT_ANALYSED, analysis_run, repository
from graphs.offline import OfflineChatModel
from tests.graphs.conftest import write_tree


async def test_the_analysis_of_an_unpacked_source_distribution_is_timed_and_metered(
    tmp_path: Path,
) -> None:
    project = write_tree(
        tmp_path / "tiny-1.0",
        {
            "pyproject.toml": '[project]\nname = "tiny"\nversion = "1.0"\n',
            "tiny/__init__.py": "def double(n: int) -> int:\n    return 2 * n\n",
            "tests/test_tiny.py": "from tiny import double\n\n\ndef test():\n    assert double(2)",
        },
    )
    archive = tmp_path / "tiny-1.0.tar.gz"
    with tarfile.open(archive, "w:gz") as packed:
        packed.add(project, arcname=project.name)
    (tmp_path / "unpacked").mkdir()
    checkout = repository(archive, tmp_path / "unpacked")

    run = await analysis_run(OfflineChatModel(), checkout)

    assert run.seconds > 0 and run.tokens > 0
    assert len(run.columns()) == len(NOT_ANALYSED)  # the table's columns line up either way
