"""Compiled templates are kept between processes (render/__init__.py, for the start-up time), and one compiled in one
language serves every other: the reader's words are applied when rendering, never folded in when compiling."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROGRAM = """
import sys
from adjudicator.render import environment, markup_environment
language = sys.argv[1]
print(environment(language).get_template("_header.txt.j2").render(game="rome1", seat="Egyptus", password="pw"))
print(environment(language).get_template("help.txt.j2").render())
print(markup_environment(language).get_template("_header.txt.j2").render(game="<b>", seat="s", password="p"))
"""


def rendered(language: str, temporary: Path) -> str:
    """What a new process renders in `language`, with Jinja's cache folder under `temporary`."""
    env = {k: v for k, v in os.environ.items() if k not in ("TMPDIR", "TEMP", "TMP")} | {"TMPDIR": str(temporary)}
    run = subprocess.run(
        [sys.executable, "-c", PROGRAM, language], capture_output=True, text=True, check=True, timeout=60, env=env
    )
    return run.stdout


def cached(temporary: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in temporary.glob("_jinja2-cache-*/pbem-*.cache")}


def test_a_template_compiled_for_one_language_renders_every_other(tmp_path: Path) -> None:
    shared, fresh = tmp_path / "shared", tmp_path / "fresh"
    shared.mkdir()
    german = rendered("de", shared)  # compiles, and keeps what it compiled
    assert "SPIEL rome1 ZUG <n> SPIELER Egyptus PASSWORT pw" in german
    kept = cached(shared)
    assert len(kept) == 3  # two text templates, one markup: escaping is kept apart
    assert not any(b"SPIEL" in code for code in kept.values())  # no German word in the compiled code
    for language in ("en", "it", "nl", "de"):
        fresh.mkdir()
        assert rendered(language, shared) == rendered(language, fresh)  # from the cache = compiled anew
        assert cached(shared) == kept  # served from the cache, nothing compiled again
        assert len(cached(fresh)) == 3
        for path in fresh.glob("_jinja2-cache-*/*"):
            path.unlink()
        for folder in fresh.glob("_jinja2-cache-*"):
            folder.rmdir()
        fresh.rmdir()
    english = rendered("en", shared)
    assert "GAME rome1 TURN <n> PLAYER Egyptus PASSWORD pw" in english and "&lt;b&gt;" in english


def test_without_a_safe_folder_templates_are_compiled_in_every_process(tmp_path: Path) -> None:
    """A cache folder Jinja will not trust (here a file in its place) leaves rendering as it was, only uncached."""
    (tmp_path / f"_jinja2-cache-{os.getuid()}").write_text("not a folder")
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    assert rendered("de", tmp_path) == rendered("de", fresh)
    assert cached(tmp_path) == {} and len(cached(fresh)) == 3
