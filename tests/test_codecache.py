"""The dataclass methods' code kept in the cache folder (adjudicator/codecache.py): a first process writes it, a
second compiles nothing and runs the very code compile() makes of each source text; a damaged or unwritable cache
costs nothing but time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

# Imports the package and a module of many dataclasses, then says what the cache did and checks, for every kept
# text, that its code is what compile() makes of it; and that a kept class behaves as a dataclass.
PROBE = """
import json
import adjudicator
from adjudicator import codecache
from adjudicator.rulesets.conqueror.orders import Move, Troops
kept = [(text, code) for codes in codecache._codes.values() for text, code in codes.items()]
same = all(code == compile(text, "<string>", "exec") for text, code in kept)
move = Move(Troops(infantry=2), "A", ("B",), line=1, text="x")
twin = Move(Troops(infantry=2), "A", ("B",), line=1, text="x")
print(json.dumps({"added": sum(map(len, codecache._added.values())), "kept": len(kept), "same": same,
                  "file": codecache.cache_file("adjudicator.rulesets.conqueror.orders"),
                  "repr": repr(move), "eq": move == twin, "hash": hash(move) == hash(twin)}))
"""


def probe(cache: Path) -> dict[str, object]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, check=True)
    return dict(json.loads(done.stdout))


def test_a_second_process_compiles_no_dataclass_method(tmp_path: Path) -> None:
    first = probe(tmp_path)
    assert first["added"] > 100 and Path(str(first["file"])).is_file()
    second = probe(tmp_path)
    assert second["added"] == 0 and second["kept"] >= first["added"]
    assert second["same"] is True
    assert second["repr"] == first["repr"] and second["eq"] is True and second["hash"] is True


def test_a_damaged_cache_file_is_made_again(tmp_path: Path) -> None:
    path = Path(str(probe(tmp_path)["file"]))
    path.write_bytes(b"\x00not marshal data")
    again = probe(tmp_path)
    assert again["added"] > 100 and again["same"] is True
    assert probe(tmp_path)["added"] == 0


def test_an_unwritable_cache_costs_only_time(tmp_path: Path) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    assert probe(blocked)["added"] > 100
    assert probe(blocked)["added"] > 100  # nothing could be kept
