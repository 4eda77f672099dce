"""map.png: a turn's map.svg drawn as a PNG, for the mail readers and webmail that show no SVG.

resvg (the resvg-py wheel: self-contained, no system library) draws it with the DejaVu Sans faces shipped in
fonts/ (free to ship: Bitstream Vera licence, fonts/LICENSE-DejaVu.txt), the first family map.svg.j2 names; the
system's fonts are not read, so the names show on a machine without fonts and the PNG is the same everywhere.
"""

from __future__ import annotations

from functools import lru_cache

from adjudicator.resources import resource_dir

# Half the maps' drawing width (the boards are drawn 3000-4000 units wide): the names stay readable on a screen
# and the file stays near 300 kB.
PNG_WIDTH = 1900
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


@lru_cache(maxsize=8)  # every seat's mail of a turn carries the same map (one per language): drawn once per send
def map_png(svg: str) -> bytes:
    """The PNG of a map.svg, PNG_WIDTH pixels wide, its height following the map's proportions."""
    import resvg_py  # imported here: only sending a report mail draws a PNG

    fonts = resource_dir("fonts")
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            width=PNG_WIDTH,
            skip_system_fonts=True,
            font_files=[str(fonts / name) for name in FONT_FILES],
            sans_serif_family="DejaVu Sans",
        )
    )
