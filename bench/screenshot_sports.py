"""Pictures of every sport's scoring (contract §18): for each sport a match in play, scored point by point through
the operator's `/point`, shown on the scorer phone (360 px) and on the classic overlay (a real server, headless
chromium).

    .venv/bin/python -m bench.screenshot_sports

Writes docs/sports/<sport>-scorer.png and docs/sports/<sport>-overlay.png.
"""

from __future__ import annotations

from dataclasses import dataclass

from playwright.sync_api import expect

from bench.browser_support import headless_browser
from bench.outputs_support import running_server
from domain.names import SIDE_JOIN
from tests.server_process import ROOT, ServerProcess


@dataclass(frozen=True)
class Sport:
    key: str  # the page's name, docs/sports/<key>.md
    preset: str
    sides: tuple[str, str]
    games: tuple[tuple[int, int], ...]  # games kind: points of each game; sets kind: games of each set
    current: tuple[int, int] = (0, 0)  # sets kind: points of the game in play


SPORTS = [
    Sport("badminton", "badminton", ("Lee Zii Jia", "Viktor Axelsen"), ((21, 19), (20, 20))),
    Sport("table-tennis", "table_tennis", ("Mima Ito", "Timo Boll"), ((11, 8), (9, 11), (5, 4))),
    Sport("squash", "squash", ("Ali Farag", "Paul Coll"), ((11, 9), (7, 5))),
    Sport("pickleball", "pickleball", ("Anna Leigh Waters", "Ben Johns"), ((11, 6), (3, 2))),
    Sport("volleyball", "volleyball", ("Riverside VC", "Harbour VC"),
          ((25, 23), (23, 25), (25, 20), (18, 25), (10, 8))),
    Sport("tennis", "tennis", ("Iga Swiatek", "Coco Gauff"), ((6, 4), (3, 2)), (2, 3)),
    Sport("padel", "padel_golden_point", ("Tapia / Coello", "Galan / Chingotto"), ((6, 3), (5, 5)), (3, 3)),
]


def alternate(a: int, b: int) -> str:
    """Points reaching a-b with the lead as small as it can be all the way."""
    low = min(a, b)
    return "ab" * low + ("a" if a > b else "b") * (max(a, b) - low)


def finish(a: int, b: int) -> str:
    """Points of a finished a-b, the winner's point last."""
    side = "a" if a > b else "b"
    return alternate(a - (side == "a"), b - (side == "b")) + side


def points_of(sport: Sport, kind: str) -> str:
    """The points that reach the sport's score (the last game or set still in play)."""
    *done, last = sport.games
    if kind == "games":
        return "".join(finish(a, b) for a, b in done) + alternate(*last)
    games = "".join(finish(a, b) for a, b in done) + alternate(*last)  # each game won to love
    return "".join(side * 4 for side in games) + alternate(*sport.current)


def seed(server: ServerProcess, sport: Sport) -> tuple[str, str]:
    """The sport's broadcast with its match in play at the sport's score: the scorer URL and the overlay URL."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": f"Club Open · {sport.key.replace('-', ' ')}", "scoring": sport.preset, "scoreboardIDs": ["classic"],
        "tables": [{"label": "Court 1"}]})["data"]
    court = broadcast["tables"][0]["id"]
    match = server.call("POST", "/operator/matches", {
        "tableID": court, "playerA": {"manualName": sport.sides[0]}, "playerB": {"manualName": sport.sides[1]},
        "eventName": "Open", "matchRound": "Final"})["data"]
    match = server.call("POST", f"/operator/matches/{match['id']}/start")["data"]
    for side in points_of(sport, match["scoring"]["kind"]):
        match = server.call("POST", f"/operator/matches/{match['id']}/point",
                            {"side": side, "version": match["scoreVersion"]})["data"]
    scorer = server.call("GET", f"/operator/tables/{court}/scorer")["data"]["url"]
    overlay = next(o["url"] for o in server.call("GET", f"/operator/broadcasts/{broadcast['id']}/outputs")["data"]
                   if o.get("design") == "classic")
    return str(scorer), str(overlay)


def main() -> None:
    shots = ROOT / "docs" / "sports"
    shots.mkdir(exist_ok=True)
    with running_server() as server, headless_browser() as browser:
        for sport in SPORTS:
            scorer, overlay = seed(server, sport)
            page = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
            page.goto(scorer)
            expect(page.locator("#who-a")).to_have_text(sport.sides[0])
            page.screenshot(path=str(shots / f"{sport.key}-scorer.png"))
            page.close()
            page = browser.new_page(viewport={"width": 1280, "height": 400})
            page.goto(overlay)
            expect(page.locator(".row.a .who")).to_contain_text(sport.sides[0].split(SIDE_JOIN)[0])
            page.screenshot(path=str(shots / f"{sport.key}-overlay.png"))
            page.close()


if __name__ == "__main__":
    main()
