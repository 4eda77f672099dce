"""A conqueror-er game's data read once per user (rulesets/conqueror/datacache.py, ER-13): a second process gets,
without reading the files, data equal field by field to what reading them gives; changed files are read again;
bad files are refused as before, every time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror.datacache import _plain, _rebuilt, same_fields
from adjudicator.rulesets.conqueror.loader import GameDataError

# Loads the files given on stdin through the cache, then reads them now: whether the loader ran for the first (it
# is imported only to read files) and whether both are the same data.
PROBE = """
import json, sys
from adjudicator.rulesets import load_ruleset
from adjudicator.rulesets.conqueror.datacache import same_fields
member = load_ruleset("conqueror-er").game_data
files = json.load(sys.stdin)
loaded = member.load_files(files)
read_then = "adjudicator.rulesets.conqueror.loader" in sys.modules
print(json.dumps({"read": read_then, "same": same_fields(loaded, member.read_files(files)),
                  "equal": loaded == member.read_files(files)}))
"""


def example_files() -> dict[str, str]:
    member = load_ruleset("conqueror-er").game_data
    return dict(member.files(load_ruleset("conqueror-er").example_data))


def probe(cache: Path, files: dict[str, str]) -> dict[str, bool]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", PROBE], input=json.dumps(files), env=env, capture_output=True, text=True, check=True
    )
    return dict(json.loads(done.stdout))


def test_the_kept_form_rebuilds_the_same_data() -> None:
    member = load_ruleset("conqueror-er").game_data
    data = member.read_files(example_files())
    assert same_fields(_rebuilt(_plain(data)), data)


def test_a_second_process_reads_no_file_and_gets_the_same_data(tmp_path: Path) -> None:
    files = example_files()
    assert probe(tmp_path, files) == {"read": True, "same": True, "equal": True}
    assert probe(tmp_path, files) == {"read": False, "same": True, "equal": True}


def test_changed_files_are_read_again(tmp_path: Path) -> None:
    files = example_files()
    probe(tmp_path, files)
    changed = {name: text + ("\n# changed\n" if name == "tracks.toml" else "") for name, text in files.items()}
    assert probe(tmp_path, changed) == {"read": True, "same": True, "equal": True}


def test_bad_files_are_refused_every_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    member = load_ruleset("conqueror-er").game_data
    bad = {**example_files(), "tracks.toml": "rounds = 'many'\n"}
    for _ in range(2):
        with pytest.raises(GameDataError, match="tracks.toml"):
            member.load_files(bad)
