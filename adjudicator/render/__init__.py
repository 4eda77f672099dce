"""Rendering through Jinja templates (templates/*.j2) and writing files atomically."""

from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from adjudicator.engine.vocabulary import leader_name
from adjudicator.resources import resource_dir

if TYPE_CHECKING:
    from jinja2 import Environment


@cache
def environment() -> Environment:
    # imported here: commands that render nothing (pbem verify) need not load Jinja
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(resource_dir("templates")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,  # plain-text outputs; the HTML site will use an escaping environment
    )
    env.filters["leader"] = leader_name
    env.filters["die"] = die_face
    return env


@cache
def markup_environment() -> Environment:
    """The escaping environment for HTML and SVG (the site, the map): every value is escaped unless marked safe."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    env = Environment(
        loader=FileSystemLoader(resource_dir("templates")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=True,
    )
    env.filters["svg_inline"] = svg_inline
    return env


def svg_inline(svg: str) -> Any:
    """An SVG document of ours (rendered by the escaping environment) for inclusion in an HTML page."""
    from markupsafe import Markup

    if svg.startswith("<?xml"):
        svg = svg[svg.index("?>") + 2:].lstrip()
    return Markup(svg)  # noqa: S704 (made by our own escaping template)


DIE_FACES = {1: "inf", 2: "inf", 3: "cav", 4: "cat", 5: "gal", 6: "blank"}


def die_face(value: int) -> str:
    """A Classic combat die as reports show it: '3=cav' (C-1.8)."""
    return f"{value}={DIE_FACES.get(value, '?')}"


def render(template: str, **context: Any) -> str:
    return environment().get_template(template).render(**context)


def write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so that a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
