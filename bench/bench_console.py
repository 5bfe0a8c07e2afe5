"""Console bench: time to render the court board (AppTest) against a real server with a large tournament.

    .venv/bin/python bench/bench_console.py                 # --tables 50 --matches 2000 --runs 5
    .venv/bin/python bench/bench_console.py --screenshot docs/console-board.png

A real `courtside serve` in a temp dir is seeded over the partner API (one broadcast with `--tables` courts,
`--matches` pending matches spread over them, one match in play per court with a live score), then the court
board page is run with Streamlit's AppTest (`--runs` times): each run is one full script run, i.e. the operator
API call (`GET /operator/tables`) plus building every table card. `GET /operator/tables` is also timed alone.
`--screenshot PATH` instead seeds a small board and saves a PNG of it through chromium (Playwright).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # also run as a file: bench/bench_console.py

from bench.browser_support import console_page  # noqa: E402
from bench.outputs_support import running_server  # noqa: E402
from tests.server_process import ROOT, ServerProcess  # noqa: E402

NAMES = ["Ann Lee", "Bo Kim", "Cy Day", "Di Fox", "Ed Park", "Flo Ruiz", "Gus Moe", "Hana Ito", "Ivo Petrov",
         "Jin Wu", "Kai Berg", "Lea Roth", "Mo Silva", "Nia Okafor", "Oli Haas", "Pia Lund"]


ROUND = len(NAMES) // 2  # matches a round


def pairings() -> Iterator[tuple[int, int]]:
    """Round-robin pairs of the players (1-based), round after round (the circle method), over and over."""
    for turn in itertools.count():
        ring = [1] + [2 + (k + turn) % (len(NAMES) - 1) for k in range(len(NAMES) - 1)]
        yield from ((ring[k], ring[-1 - k]) for k in range(ROUND))


def seed(server: ServerProcess, tables: int, matches: int, in_play: int, scoreboards: list[str] | None = None) -> None:
    """One broadcast of `tables` courts (with overlay `scoreboards`), `matches` pending matches round-robin,
    `in_play` courts playing."""
    key = server.call("POST", "/operator/keys", {"name": "bench"})["data"]["key"]
    broadcast = server.call("POST", "/broadcasts", {
        "name": "Club Open", "tables": [{"label": f"Court {i}"} for i in range(1, tables + 1)]}
        | ({"scoreboardIDs": scoreboards} if scoreboards else {}), key)["data"]
    table_ids = [t["id"] for t in broadcast["tables"]]
    players = [{"externalID": f"p{i}", "firstName": n.split()[0], "lastName": n.split()[1]}
               for i, n in enumerate(NAMES, start=1)]
    server.call("PUT", "/player-lists", {"externalID": "club", "name": "Club", "players": players}, key)
    bodies = [{
        "externalID": f"M{i + 1}", "tableID": table_ids[i % tables], "playerListExternalID": "club",
        "matchRound": f"Round {1 + i // ROUND}", "eventName": "Open singles", "bestOf": 5,
        "playerA": {"externalID": f"p{a}"}, "playerB": {"externalID": f"p{b}"},
    } for i, (a, b) in zip(range(matches), pairings(), strict=False)]
    for start in range(0, len(bodies), 100):
        server.call("POST", "/matches/bulk", {"matches": bodies[start:start + 100]}, key)
    board = server.call("GET", "/operator/tables?limit=100")["data"]
    for index, table in enumerate(board[:in_play]):
        match_id = table["queue"][0]["id"]
        server.call("POST", f"/operator/matches/{match_id}/start")
        games = [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 4 + index % 6, "b": 3 + index % 5}][: 1 + index % 3]
        server.call("POST", f"/operator/matches/{match_id}/score", {"gameScores": games})


def bench(server: ServerProcess, runs: int) -> dict[str, Any]:
    from streamlit.testing.v1 import AppTest

    os.environ["COURTSIDE_API_URL"] = server.root
    os.environ["COURTSIDE_OPERATOR_KEY"] = server.operator_key
    api_ms, size = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        response = requests.get(server.root + "/api/v1/operator/tables?limit=100", timeout=60,
                                headers={"Authorization": f"Bearer {server.operator_key}"})
        response.raise_for_status()
        api_ms.append((time.perf_counter() - started) * 1000)
        size = len(response.content)
    app = AppTest.from_file(str(ROOT / "console" / "app.py"), default_timeout=300)
    render_ms = []
    for _ in range(runs):
        started = time.perf_counter()
        app.run()
        render_ms.append((time.perf_counter() - started) * 1000)
        if app.exception:
            raise SystemExit(f"the page failed: {app.exception}")
    caption = next(c.value for c in app.caption if "tables ·" in c.value)
    return {
        "board": caption,
        "operator_tables_bytes": size,
        "api_get_operator_tables_ms": {"median": round(statistics.median(api_ms), 1), "max": round(max(api_ms), 1)},
        "court_board_run_ms": {"first": round(render_ms[0], 1), "median": round(statistics.median(render_ms), 1),
                               "max": round(max(render_ms), 1)},
    }


def screenshot(server: ServerProcess, path: Path) -> None:
    """Run `courtside console` against the server and save a PNG of the court board."""
    with console_page(server, viewport={"width": 1440, "height": 2000}) as console:
        console.open("/", ready="Manage a court")
        console.shoot(path, above="New match")  # the whole board, not the forms below it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, help="save a PNG of a small court board here instead")
    args = parser.parse_args()
    with running_server() as server:
        if args.screenshot:
            seed(server, tables=6, matches=18, in_play=4, scoreboards=["classic", "lowerthird"])
            screenshot(server, args.screenshot)
            print(json.dumps({"screenshot": str(args.screenshot)}))
        else:
            seed(server, tables=args.tables, matches=args.matches, in_play=min(args.tables, 20))
            result = bench(server, args.runs)
            print(json.dumps({"tables": args.tables, "matches": args.matches, "runs": args.runs} | result))


if __name__ == "__main__":
    main()
