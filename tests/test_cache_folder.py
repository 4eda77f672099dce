"""The cache folder (resources.kept): the TOML tables it keeps are tomllib's, for every shipped TOML file, in a later
process too; a changed text is parsed again; bad TOML is tomllib's error; no cache folder costs time only. The
catalogues it keeps (render/i18n.py) are what Babel compiles."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from adjudicator import resources
from adjudicator.resources import resource_dir, toml_table

SHIPPED = sorted(p for name in ("games", "grammar") for p in resource_dir(name).rglob("*.toml"))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(resources, "_KEPT", {})
    return tmp_path / "cache" / "pbem" / "toml"


def test_every_shipped_file_reads_as_tomllib_reads_it_from_the_cache_too(cache: Path) -> None:
    assert len(SHIPPED) > 10
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        assert toml_table(text) == tomllib.loads(text), path
    assert len(list(cache.iterdir())) == len({p.read_text(encoding="utf-8") for p in SHIPPED})
    resources._KEPT.clear()  # as a new process: from the files of the cache folder
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8")
        assert toml_table(text) == tomllib.loads(text), path


def test_a_later_process_reads_the_table_from_the_cache_folder(cache: Path, tmp_path: Path) -> None:
    text = '[words]\nkeywords = "k.toml"\npieces = ["INF", "CAV"]\n[[seat]]\nname = "Macedonia"\nvalue = 1.5\n'
    assert toml_table(text) == tomllib.loads(text)
    (stored,) = cache.iterdir()
    code = "import sys; from adjudicator.resources import toml_table; print(toml_table(sys.stdin.read()))"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True, env=env, check=True)
    assert run.stdout.strip() == str(tomllib.loads(text))
    assert [*cache.iterdir()] == [stored]


def test_each_caller_gets_its_own_copy(cache: Path) -> None:
    first = toml_table("[a]\nb = [1, 2]\n")
    first["a"]["b"].append(3)
    assert toml_table("[a]\nb = [1, 2]\n") == {"a": {"b": [1, 2]}}


def test_a_changed_text_is_parsed_again(cache: Path) -> None:
    assert toml_table("x = 1\n") == {"x": 1}
    assert toml_table("x = 2\n") == {"x": 2}


def test_a_damaged_cache_file_is_parsed_again(cache: Path) -> None:
    toml_table("x = 1\n")
    (stored,) = cache.iterdir()
    stored.write_bytes(b"\x00garbage")
    resources._KEPT.clear()
    assert toml_table("x = 1\n") == {"x": 1}


def test_bad_toml_is_tomllibs_error(cache: Path) -> None:
    with pytest.raises(resources.TOMLDecodeError, match="line 1"):
        toml_table("x = = 1\n")
    assert resources.TOMLDecodeError is tomllib.TOMLDecodeError


def test_dates_are_read_though_not_cached(cache: Path) -> None:
    assert toml_table("when = 2026-11-27\n") == tomllib.loads("when = 2026-11-27\n")
    assert not cache.exists() or not [*cache.iterdir()]


def test_no_writable_cache_folder_costs_time_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.setattr(resources, "_KEPT", {})
    assert toml_table("x = 1\n") == {"x": 1}


def test_catalogues_read_from_the_cache_are_babels(cache: Path) -> None:
    """A .po file compiled and kept (render/i18n.py) is what Babel compiles of it, in a later process too."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    from adjudicator.render import i18n

    paths = sorted(resource_dir("locale").rglob("*.po")) + sorted(resource_dir("games").rglob("*.po"))
    assert len(paths) >= 6
    for path in paths:
        catalogue = read_po(io.BytesIO(path.read_bytes()), locale=path.parent.parent.name)
        mo = io.BytesIO()
        write_mo(mo, catalogue)
        texts = [(m.id, m.string) for m in catalogue if m.id and m.string and isinstance(m.id, str)]
        for _ in range(2):  # made, then read from the cache folder
            i18n._read_catalogue.cache_clear()
            resources._KEPT.clear()
            assert i18n._read_catalogue(path) == (mo.getvalue(), texts), path
    i18n._read_catalogue.cache_clear()
    assert len(list((cache.parent / "catalogue").iterdir())) == len(paths)


def test_a_german_receipt_reads_the_same_from_the_cache(cache: Path) -> None:
    from adjudicator.render import i18n

    said = []
    for _ in range(2):
        for function in (i18n._read_catalogue, i18n._catalogues, i18n._chained, i18n._patterns_of, i18n._layered):
            function.cache_clear()
        resources._KEPT.clear()
        said.append(
            (
                i18n.gettext("de", "Receipt for turn %(turn)s", turn=3),
                i18n.engine_text("de", "you have no pieces in GAL", "coe-classic"),
            )
        )
    assert said[0] == said[1] and said[0][0] != "Receipt for turn 3"
