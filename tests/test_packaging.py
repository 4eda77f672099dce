"""The installed package carries its data: grammar/, templates/, games/ and locale/ (run outside the source tree)."""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.render.i18n import gettext


def installed_pbem() -> str:
    try:
        importlib.metadata.distribution("adjudicator")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the package is not installed (pip install .); nothing to check")
    found = shutil.which("pbem", path=str(Path(sys.executable).parent)) or shutil.which("pbem")
    if found is None:
        pytest.skip("the pbem console script is not on PATH")
    return found


def test_installed_pbem_plays_the_demo_outside_the_source_tree(tmp_path: Path) -> None:
    pbem = installed_pbem()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run(
        [pbem, "demo", "--data", str(tmp_path / "demo")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "0 problems" in run.stdout
    listed = subprocess.run([pbem, "rulesets"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert "coe-classic" in listed.stdout
    german = subprocess.run(
        [pbem, "report", "demo", "--turn", "1", "--language", "de", "--data", str(tmp_path / "demo")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert german.returncode == 0, german.stderr  # the catalogues (locale/) are installed too
    assert gettext("de", "Game %(game)s - public report", game="demo") in german.stdout
