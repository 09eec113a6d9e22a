"""Which repository files are worth reading, in which order, and what git lists."""

import logging
import os
import stat
import subprocess
from pathlib import Path, PurePosixPath

log = logging.getLogger("ticketsmith.analysis")

GIT_TIMEOUT_S = 60

LANGUAGES = {
    ".py": "Python",
    ".js": "JavaScript",
    ".jsx": "JavaScript",
    ".mjs": "JavaScript",
    ".ts": "TypeScript",
    ".tsx": "TypeScript",
    ".go": "Go",
    ".rs": "Rust",
    ".java": "Java",
    ".kt": "Kotlin",
    ".rb": "Ruby",
    ".php": "PHP",
    ".cs": "C#",
    ".c": "C",
    ".h": "C",
    ".cpp": "C++",
    ".hpp": "C++",
    ".swift": "Swift",
    ".scala": "Scala",
    ".sh": "Shell",
}
CODE_SUFFIXES = frozenset(LANGUAGES) | frozenset(
    ".pyi .pyx .pxd .cjs .cc .cxx .hh .hxx .inc .m .mm .f .f90 .f95 .pyf .lua .pl .pm .r .jl"
    " .ex .exs .erl .hs .ml .clj .dart .groovy .sql .vue .svelte .html .htm .css .scss .sass .less"
    " .jinja .j2 .bash .zsh .ps1".split()
)
DOC_CONFIG_SUFFIXES = frozenset(
    ".md .rst .txt .adoc .toml .cfg .ini .yaml .yml .json .xml .in .conf .properties".split()
)
DOC_DIRS = frozenset({"doc", "docs", "documentation"})
TEST_DIRS = frozenset({"test", "tests", "testing", "__tests__", "spec", "specs", "test cases"})
# binary, translations, generated or bulk data: never worth reading
SKIPPED_SUFFIXES = frozenset(
    ".png .jpg .jpeg .gif .bmp .ico .icns .cur .tif .tiff .webp .avif .heic .psd .xcf .tga"
    " .dds .ppm .pgm .pbm .pnm .pcx .sgi .jp2 .j2k .jpx .blp .fli .flc .fits .mpo .eps .svg"
    " .ttf .otf .woff .woff2 .eot .pfb .pcf .fon"
    " .zip .tar .gz .tgz .bz2 .xz .lzma .7z .rar .zst .whl .egg .jar .war .deb .rpm .dmg .iso"
    " .pyc .pyo .pyd .so .o .a .obj .lib .dll .dylib .exe .class .wasm .bin"
    " .mp3 .mp4 .wav .ogg .flac .avi .mov .webm .mkv .m4a"
    " .pdf .doc .docx .xls .xlsx .ppt .pptx .odt .ods .odp .graffle"
    " .npy .npz .pkl .pickle .h5 .hdf5 .parquet .sqlite .sqlite3 .db .mmdb .shp .shx .dbf"
    " .mo .po .pot .map".split()
)
SKIPPED_ENDINGS = (".min.js", ".min.css", ".DS_Store")


def readable(path: str) -> bool:
    """Whether a path's name says it is text worth reading (not binary, translation or data)."""
    name = PurePosixPath(path).name
    suffix = PurePosixPath(name).suffix.lower()
    return suffix not in SKIPPED_SUFFIXES and not name.endswith(SKIPPED_ENDINGS)


def utf8_name(path: str) -> bool:
    """Whether a path (surrogate-escaped when its bytes are not UTF-8) is valid UTF-8."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def priority(path: str) -> tuple[int, int, str]:
    """Sort key: root files, source code, tests, docs and config, the rest; shallow first."""
    parts = path.split("/")
    dirs = {d.lower() for d in parts[:-1]}
    name = parts[-1].lower()
    suffix = PurePosixPath(name).suffix
    if len(parts) == 1:
        rank = 0
    elif dirs & DOC_DIRS:
        rank = 3
    elif suffix in CODE_SUFFIXES:
        is_test = bool(dirs & TEST_DIRS) or name.startswith("test_") or name == "conftest.py"
        is_test |= PurePosixPath(name).stem.endswith(("_test", "_tests", ".test", ".spec"))
        rank = 2 if is_test else 1
    elif suffix in DOC_CONFIG_SUFFIXES or name in {"makefile", "dockerfile"}:
        rank = 3
    else:
        rank = 4
    return rank, len(parts), path


def git_files(repo_dir: Path) -> list[str] | None:
    """Files git lists (tracked, plus untracked not ignored), or None when git cannot tell."""
    if not (repo_dir / ".git").exists():
        return None
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    # the repository's own rules only, as the walk applies: no system or user config
    env |= {"GIT_DIR": str(repo_dir / ".git"), "GIT_WORK_TREE": str(repo_dir)}
    env |= {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    command = ["git", "-c", f"core.excludesFile={os.devnull}", "ls-files", "-z"]
    command += ["--cached", "--others", "--exclude-standard"]
    try:
        done = subprocess.run(
            command, cwd=repo_dir, env=env, capture_output=True, timeout=GIT_TIMEOUT_S, check=True
        )
    except (OSError, subprocess.SubprocessError) as error:
        log.warning("git ls-files failed in %s, walking the tree instead: %s", repo_dir, error)
        return None
    return [os.fsdecode(name) for name in dict.fromkeys(done.stdout.split(b"\0")) if name]


def regular_file(path: Path) -> bool:
    """Whether a path is a regular file (not a symlink, directory or submodule)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False
