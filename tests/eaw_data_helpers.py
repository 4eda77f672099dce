"""Editing a copy of the Empires of the Ancient World example data for the data-check tests: change one key of
one area or card, add or drop a connection, and read back the check's problems and notes as text."""

from __future__ import annotations

import json
import shutil
import tomllib
from pathlib import Path
from typing import Any

from adjudicator.resources import resource_dir
from adjudicator.rulesets.empires.loader import check_folder

EXAMPLE = resource_dir("games") / "empires-aw" / "example-data"
REMOVE: Any = object()


def copy_example(target: Path) -> Path:
    shutil.copytree(EXAMPLE, target)
    return target


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    return "[" + ", ".join(toml_value(v) for v in value) + "]"


def change_entry(folder: Path, file: str, array: str, ident: str, **values: Any) -> None:
    """Set (or with REMOVE drop) keys of the [[array]] entry whose id is `ident`."""
    path = folder / file
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    found = [i for i, b in enumerate(blocks) if f"[[{array}]]\nid = {json.dumps(ident)}\n" in b]
    assert len(found) == 1, f"{array} {ident} not found once in {file}"
    lines = blocks[found[0]].splitlines()
    for key, value in values.items():
        kept, skipping = [], False
        for line in lines:
            if line.startswith(f"{key} = "):
                skipping = line.rstrip().endswith("[")  # a multi-line array runs to its closing "]"
            elif skipping:
                skipping = line != "]"
            else:
                kept.append(line)
        lines = kept
        if value is not REMOVE:
            lines.append(f"{key} = {toml_value(value)}")
    blocks[found[0]] = "\n".join(lines)
    path.write_text("\n\n".join(blocks), encoding="utf-8")


def change_area(folder: Path, ident: str, **values: Any) -> None:
    change_entry(folder, "map.toml", "area", ident, **values)


def change_card(folder: Path, ident: str, **values: Any) -> None:
    change_entry(folder, "cards.toml", "card", ident, **values)


def add_connection(folder: Path, a: str, b: str, kinds: list[str], sea: str | None = None) -> None:
    text = f"\n[[connection]]\na = {json.dumps(a)}\nb = {json.dumps(b)}\nkinds = {toml_value(kinds)}\n"
    text += f"sea = {json.dumps(sea)}\n" if sea else ""
    with (folder / "map.toml").open("a", encoding="utf-8") as out:
        out.write(text)


def drop_connection(folder: Path, a: str, b: str) -> None:
    path = folder / "map.toml"
    blocks = path.read_text(encoding="utf-8").split("\n\n")
    head = f"[[connection]]\na = {json.dumps(a)}\nb = {json.dumps(b)}\n"
    kept = [block for block in blocks if not block.startswith(head)]
    assert len(kept) == len(blocks) - 1, f"connection {a}-{b} not found once"
    path.write_text("\n\n".join(kept), encoding="utf-8")


def replace_text(folder: Path, file: str, old: str, new: str) -> None:
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not in {file} once"
    path.write_text(text.replace(old, new), encoding="utf-8")


def index_of(folder: Path, file: str, array: str, ident: str) -> int:
    """The position of the entry `ident` in [[array]] (the check names entries by it: area[4])."""
    entries = tomllib.loads((folder / file).read_text(encoding="utf-8"))[array]
    return [entry.get("id") for entry in entries].index(ident)


def problems(folder: Path) -> list[str]:
    return [problem.text() for problem in check_folder(folder).problems]


def notes(folder: Path) -> list[str]:
    return [note.text() for note in check_folder(folder).notes]
