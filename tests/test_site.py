"""`pbem site`: the static HTML archive of a game. What it holds (public material only, escaped player text),
and how it behaves in a real headless browser (Debian's chromium driven by chromedriver through Selenium):
pages load without errors, the links work and the map shows the board's areas. Screenshots are kept in
test-artifacts/ (or $PBEM_ARTIFACTS).
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator.archive import Archive
from adjudicator.resources import resource_dir
from adjudicator.rulesets import load_ruleset
from adjudicator.services.adjudication import adjudicate
from adjudicator.services.demo import run_demo
from adjudicator.services.games import NewGameOptions, new_game
from adjudicator.services.orders import submit
from adjudicator.services.reports import write_game_site
from tests.conftest import Pbem

SEATS = {"Macedonia": "mac@example.org", "Egyptus": "egy@example.org", "Hispania": "his@example.org"}
SiteGame = tuple[Path, dict[str, str]]  # the site's folder, the seats' passwords
ARTIFACTS = Path(os.environ.get("PBEM_ARTIFACTS", Path(__file__).parent.parent / "test-artifacts"))


@pytest.fixture
def press_game(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A game whose first turn has a private word, a broadcast with markup in it, and a purchase."""
    archive = Archive.in_folder(tmp_path)
    passwords = new_game(archive, tmp_path, NewGameOptions("rome1", "coe-classic", SEATS)).passwords
    submit(
        archive,
        "rome1",
        f"GAME rome1 TURN 1 PLAYER Macedonia PASSWORD {passwords['Macedonia']}\n"
        "BUY 1 INF\nPRESS TO Egyptus: the secret plan is Thracia\n"
        "BROADCAST: <script>alert('hi')</script> & <b>greetings</b>\n",
    )
    adjudicate(archive, tmp_path, "rome1")
    write_game_site(archive, "rome1", tmp_path / "site")
    return tmp_path / "site", passwords


def site_text(site: Path) -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(site.iterdir()))


def test_the_site_has_an_index_a_page_and_a_map_per_turn(press_game: tuple[Path, dict[str, str]]) -> None:
    site, _ = press_game
    assert sorted(p.name for p in site.iterdir()) == [
        "index.html",
        "style.css",
        "turn-0000.html",
        "turn-0000.svg",
        "turn-0001.html",
        "turn-0001.svg",
    ]
    index = (site / "index.html").read_text()
    assert 'href="turn-0001.html"' in index and "Checking the dice" in index
    page = (site / "turn-0001.html").read_text()
    assert "Macedonia buys 1 infantry" in page and 'id="area-MAC"' in page


def test_nothing_private_reaches_the_site(tmp_path: Path, press_game: tuple[Path, dict[str, str]]) -> None:
    site, passwords = press_game
    text = site_text(site)
    assert "secret plan" not in text  # private press stays private
    assert not any(password in text for password in passwords.values())
    with Archive.in_folder(tmp_path).session() as session:
        from adjudicator.archive.queries import find_game

        seed = find_game(session, "rome1").seed
    assert seed not in text


def test_player_text_is_escaped(press_game: tuple[Path, dict[str, str]]) -> None:
    page = (press_game[0] / "turn-0001.html").read_text()
    assert "<script>" not in page and "<b>greetings" not in page
    assert "&lt;script&gt;alert(&#39;hi&#39;)&lt;/script&gt; &amp; &lt;b&gt;greetings&lt;/b&gt;" in page


def test_each_turn_page_tells_how_its_dice_key_is_checked(press_game: tuple[Path, dict[str, str]]) -> None:
    site, _ = press_game
    index, page = (site / "index.html").read_text(), (site / "turn-0001.html").read_text()
    commitment = index.split('<p class="key">', 1)[1].split("</p>", 1)[0]
    assert f'SHA-256 of this key must be <span class="key">{commitment}</span> (the commitment)' in page


def _row(index: str, seat: str) -> str:
    """The standings row of `seat` in the index."""
    table = index.split('<table id="standings">', 1)[1].split("</table>", 1)[0]
    return next(row for row in table.split("<tr") if f"<td>{seat}" in row)


def test_the_index_shows_the_standings_and_the_latest_map(tmp_path: Path, press_game: SiteGame) -> None:
    site, _ = press_game
    index = (site / "index.html").read_text()
    with Archive.in_folder(tmp_path).session() as session:
        from adjudicator.archive.queries import find_game, latest_turn

        state = json.loads(latest_turn(session, find_game(session, "rome1")).state_json)
    assert "Standings after turn 1" in index and "<th>Treasury</th><th>Tribute</th><th>Areas held</th>" in index
    for seat, player in state["players"].items():
        held = [code for code, area in state["areas"].items() if area["owner"] == seat]
        row = _row(index, seat)
        assert f'<td class="number">{player["treasury"]}</td><td class="number">{player["tribute"]}</td>' in row
        assert f"<td>{len(held)}: {' '.join(held)}</td>" in row
    latest = index.split('id="latest-map">', 1)[1]
    assert "The map after turn 1" in index and 'id="area-MAC"' in latest  # the map of turn 1 (the latest)
    assert latest.split("</svg>", 1)[0] in (site / "turn-0001.html").read_text()


def test_the_index_has_no_literal_backticks(press_game: tuple[Path, dict[str, str]]) -> None:
    index = (press_game[0] / "index.html").read_text()
    assert "`" not in index and "<code>pbem verify</code> replays every turn" in index


def test_the_standings_are_translated(tmp_path: Path, press_game: tuple[Path, dict[str, str]]) -> None:
    write_game_site(Archive.in_folder(tmp_path), "rome1", tmp_path / "site-de", language="de")
    index = (tmp_path / "site-de" / "index.html").read_text()
    assert "Stand nach Zug 1" in index and "<th>Kasse</th><th>Tribut</th><th>Gehaltene Gebiete</th>" in index
    assert "<code>pbem verify</code>" in index and "`" not in index


def test_ER_2_3_the_index_of_a_conqueror_game_shows_control_coins_and_vp(tmp_path: Path) -> None:
    pbem = Pbem(tmp_path / "data")
    data = resource_dir("games") / "conqueror-er" / "example-data"
    seats = ("--seat", "kesh=k@example.org", "--seat", "aurel=a@example.org", "--seat", "thal=t@example.org")
    assert pbem("new", "er1", "--ruleset", "conqueror-er", "--game-data", str(data), *seats).exit_code == 0
    assert pbem("site", "er1", "--out", str(tmp_path / "site")).exit_code == 0
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "<th>Coins</th><th>Victory points</th><th>Areas held</th>" in index
    capitals = {"aurel": "AUR", "kesh": "KES", "thal": "THA"}  # each faction starts holding its capital (ER-2.3)
    for faction, capital in capitals.items():
        assert f'<td class="number">0</td><td class="number">0</td><td>1: {capital}</td>' in _row(index, faction)
    assert 'id="latest-map"' in index and 'id="area-AUR"' in index.split('id="latest-map"', 1)[1]


# -- in a real browser ---------------------------------------------------------------------------------------------


def _browser_missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the browser test needs chromium and chromedriver in CI: {reason}", pytrace=False)
    pytest.skip(f"the browser test needs chromium and chromedriver: {reason}")


@pytest.fixture
def browser() -> Iterator[object]:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        _browser_missing("not installed (Debian: chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = chromium or ""
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1300,1600",
    ):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def served_demo_site(tmp_path: Path) -> Iterator[str]:
    """The demo game's site, served over HTTP on loopback."""
    run_demo(tmp_path / "demo", lambda _: None, load_ruleset("coe-classic"))
    write_game_site(Archive.in_folder(tmp_path / "demo"), "demo", tmp_path / "site")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_the_site_in_a_real_browser(browser: object, served_demo_site: str) -> None:
    from selenium.webdriver.common.by import By

    driver = browser  # a selenium WebDriver
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    driver.get(f"{served_demo_site}/index.html")  # type: ignore[attr-defined]
    assert driver.title.startswith("demo: ")  # type: ignore[attr-defined]
    links = driver.find_elements(By.CSS_SELECTOR, "#turns a")  # type: ignore[attr-defined]
    assert [link.text for link in links] == [str(n) for n in range(13)]
    rows = driver.find_elements(By.CSS_SELECTOR, "#standings tr")  # type: ignore[attr-defined]
    assert [row.text.split()[0] for row in rows] == ["Player", "Macedonia", "Egyptus", "Hispania"]
    assert len(driver.find_elements(By.CSS_SELECTOR, "#latest-map g.area")) == 60  # type: ignore[attr-defined]
    driver.save_screenshot(str(ARTIFACTS / "site-index.png"))  # type: ignore[attr-defined]

    links[11].click()  # turn 11: Egyptus attacks Cilicia
    assert driver.title == "demo, turn 11"  # type: ignore[attr-defined]
    areas = driver.find_elements(By.CSS_SELECTOR, "#map g.area")  # type: ignore[attr-defined]
    assert len(areas) == 60 and all(a.is_displayed() for a in areas)
    assert driver.find_element(By.ID, "area-CIL").is_displayed()  # type: ignore[attr-defined]
    width = driver.execute_script("return document.querySelector('#map svg').getBoundingClientRect().width")  # type: ignore[attr-defined]
    assert width > 800  # the map scales to the page
    assert "Land battle in CIL" in driver.find_element(By.TAG_NAME, "body").text  # type: ignore[attr-defined]
    driver.save_screenshot(str(ARTIFACTS / "site-turn-11.png"))  # type: ignore[attr-defined]

    driver.find_element(By.CSS_SELECTOR, "a[rel=next]").click()  # type: ignore[attr-defined]
    assert driver.title == "demo, turn 12"  # type: ignore[attr-defined]
    errors = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]  # type: ignore[attr-defined]
    assert not errors, errors
