"""Which dependencies a change adds or moves: the dependency files of the base against the
change's, for every kind of file."""

from integrations.environments.dependency_changes import (
    DependencyChange,
    dependency_changes,
    is_dependency_file,
)

BASE = "requests==2.19.0\nflask==3.0.0  # web\nattrs==23.1.0\n"


def changes(before: str, after: str, path: str = "requirements.txt") -> list[DependencyChange]:
    return dependency_changes({path: before}, {path: after})


def test_an_added_pin_is_reported_with_its_version() -> None:
    found = changes(BASE, BASE + "urllib3==1.24.1\n")
    assert found == [DependencyChange(name="urllib3", version="1.24.1", path="requirements.txt")]


def test_an_upgrade_names_the_version_it_replaces() -> None:
    found = changes(BASE, BASE.replace("requests==2.19.0", "requests==2.20.0"))
    assert [(c.name, c.version, c.previous) for c in found] == [("requests", "2.20.0", "2.19.0")]


def test_unchanged_and_removed_dependencies_are_not_reported() -> None:
    assert changes(BASE, BASE) == []
    assert changes(BASE, "requests==2.19.0\n") == []
    assert changes(BASE, "") == []  # the file deleted


def test_an_unpinned_requirement_has_no_version() -> None:
    found = changes(BASE, BASE + "httpx>=0.27\nidna==3.*\n")
    assert [(c.name, c.version, c.requirement) for c in found] == [
        ("httpx", None, "httpx>=0.27"),
        ("idna", None, "idna==3.*"),
    ]


def test_a_new_file_counts_every_pin_in_it() -> None:
    found = dependency_changes({"requirements-dev.txt": ""}, {"requirements-dev.txt": BASE})
    assert {c.name for c in found} == {"requests", "flask", "attrs"}


def test_options_hashes_urls_and_comments_are_not_dependencies() -> None:
    text = (
        "-r base.txt\n--index-url https://example.org/simple\n# a comment\n"
        "pyyaml==6.0.1 \\\n    --hash=sha256:abc\n"
        "pkg @ https://example.org/pkg-1.0.tar.gz\n"
    )
    found = changes("", text)
    assert [(c.name, c.version) for c in found] == [("pyyaml", "6.0.1")]


def test_pyproject_dependencies_extras_and_groups() -> None:
    before = '[project]\nname = "demo"\ndependencies = ["requests==2.19.0"]\n'
    after = (
        '[project]\nname = "demo"\ndependencies = ["Requests==2.31.0"]\n'
        '[project.optional-dependencies]\nyaml = ["PyYAML==5.3"]\n'
        '[dependency-groups]\ndev = ["pytest>=8", {include-group = "lint"}]\n'
        'lint = ["ruff==0.5.0"]\n'
    )
    found = changes(before, after, "pyproject.toml")
    assert {(c.name, c.version, c.previous) for c in found} == {
        ("requests", "2.31.0", "2.19.0"),
        ("pyyaml", "5.3", None),
        ("pytest", None, None),
        ("ruff", "0.5.0", None),
    }


def test_setup_cfg_install_requires_and_extras() -> None:
    before = "[options]\ninstall_requires =\n    requests==2.19.0\n"
    after = before + "    jinja2==2.10\n[options.extras_require]\ntest =\n    pytest==8.0.0\n"
    found = changes(before, after, "setup.cfg")
    assert {(c.name, c.version) for c in found} == {("jinja2", "2.10"), ("pytest", "8.0.0")}


def test_uv_lock_pins_from_the_index_only() -> None:
    lock = (
        'version = 1\n[[package]]\nname = "demo"\nversion = "0.1.0"\n'
        'source = {{ editable = "." }}\n'
        '[[package]]\nname = "requests"\nversion = "{v}"\n'
        'source = {{ registry = "https://pypi.org/simple" }}\n'
    )
    found = changes(lock.format(v="2.19.0"), lock.format(v="2.31.0"), "uv.lock")
    assert [(c.name, c.version, c.previous) for c in found] == [("requests", "2.31.0", "2.19.0")]


def test_poetry_lock_pins() -> None:
    lock = '[[package]]\nname = "Django"\nversion = "{v}"\n'
    found = changes(lock.format(v="4.2.0"), lock.format(v="4.2.1"), "poetry.lock")
    assert [(c.name, c.version) for c in found] == [("django", "4.2.1")]


def test_a_locked_version_says_more_than_the_range_beside_it() -> None:
    pyproject = '[project]\nname = "demo"\ndependencies = ["requests>=2"]\n'
    lock = '[[package]]\nname = "requests"\nversion = "2.19.0"\nsource = { registry = "x" }\n'
    before = {"pyproject.toml": "", "uv.lock": ""}
    after = {"pyproject.toml": pyproject, "uv.lock": lock}
    found = dependency_changes(before, after)
    assert [(c.name, c.version, c.path) for c in found] == [("requests", "2.19.0", "uv.lock")]


def test_dependency_files_are_recognised_by_name() -> None:
    found = ["requirements.txt", "requirements/dev.txt", "sub/pyproject.toml", "uv.lock"]
    found += ["poetry.lock", "setup.cfg", "dev-requirements.txt", "requirements.in"]
    for path in found:
        assert is_dependency_file(path), path
    for path in ("calc/operations.py", "README.md", "docs/requirements.rst"):
        assert not is_dependency_file(path), path
