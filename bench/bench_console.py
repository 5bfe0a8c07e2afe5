"""Console bench: time to render the court board (AppTest) against a real server with a large tournament.

    .venv/bin/python bench/bench_console.py                 # --tables 50 --matches 2000 --runs 5
    .venv/bin/python bench/bench_console.py --screenshot docs/court-board.png

A real `courtside serve` in a temp dir is seeded over the partner API (one broadcast with `--tables` courts,
`--matches` pending matches spread over them, one match in play per court with a live score), then the court
board page is run with Streamlit's AppTest (`--runs` times): each run is one full script run, i.e. the operator
API call (`GET /operator/tables`) plus building every table card. `GET /operator/tables` is also timed alone.
`--screenshot PATH` instead seeds a small board and saves a PNG of it through chromium (Playwright).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

NAMES = ["Ann Lee", "Bo Kim", "Cy Day", "Di Fox", "Ed Park", "Flo Ruiz", "Gus Moe", "Hana Ito", "Ivo Petrov",
         "Jin Wu", "Kai Berg", "Lea Roth", "Mo Silva", "Nia Okafor", "Oli Haas", "Pia Lund"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(url: str, process: subprocess.Popen[bytes], bound: float = 60) -> None:
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if requests.get(url, timeout=2).status_code == 200:
                return
        except requests.RequestException:
            time.sleep(0.2)
    raise SystemExit(f"{url} did not come up")


class Server:
    """A `courtside serve` child process in a temp data dir."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir, self.port = data_dir, free_port()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cli.main", "serve", "--data-dir", str(data_dir), "--port", str(self.port)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        wait_for(self.url + "/api/v1/health", self.process)
        self.operator_key = (data_dir / "operator.key").read_text().strip()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, key: str, method: str, path: str, body: Any = None) -> Any:
        response = requests.request(method, self.url + "/api/v1" + path, json=body, timeout=120,
                                    headers={"Authorization": f"Bearer {key}"})
        if response.status_code >= 400:
            raise SystemExit(f"{method} {path}: {response.status_code} {response.text[:300]}")
        return response.json().get("data")

    def stop(self) -> None:
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(timeout=30)


def seed(server: Server, tables: int, matches: int, in_play: int) -> None:
    """One broadcast of `tables` courts, `matches` pending matches round-robin, `in_play` courts playing."""
    key = server.call(server.operator_key, "POST", "/operator/keys", {"name": "bench"})["key"]
    broadcast = server.call(key, "POST", "/broadcasts", {
        "name": "Club Open", "tables": [{"label": f"Court {i}"} for i in range(1, tables + 1)]})
    table_ids = [t["id"] for t in broadcast["tables"]]
    players = [{"externalID": f"p{i}", "firstName": n.split()[0], "lastName": n.split()[1]}
               for i, n in enumerate(NAMES, start=1)]
    server.call(key, "PUT", "/player-lists", {"externalID": "club", "name": "Club", "players": players})
    bodies = [{
        "externalID": f"m{i}", "tableID": table_ids[i % tables], "playerListExternalID": "club",
        "matchRound": f"R{1 + i // tables}", "bestOf": 5,
        "playerA": {"externalID": f"p{1 + (2 * i) % len(NAMES)}"},
        "playerB": {"externalID": f"p{1 + (2 * i + 1) % len(NAMES)}"},
    } for i in range(matches)]
    for start in range(0, len(bodies), 100):
        server.call(key, "POST", "/matches/bulk", {"matches": bodies[start:start + 100]})
    board = server.call(server.operator_key, "GET", "/operator/tables?limit=100")
    for index, table in enumerate(board[:in_play]):
        match_id = table["queue"][0]["id"]
        server.call(server.operator_key, "POST", f"/operator/matches/{match_id}/start")
        games = [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 4 + index % 6, "b": 3 + index % 5}][: 1 + index % 3]
        server.call(server.operator_key, "POST", f"/operator/matches/{match_id}/score", {"gameScores": games})


def bench(server: Server, runs: int) -> dict[str, Any]:
    from streamlit.testing.v1 import AppTest

    os.environ["COURTSIDE_API_URL"] = server.url
    os.environ["COURTSIDE_OPERATOR_KEY"] = server.operator_key
    api_ms, size = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        response = requests.get(server.url + "/api/v1/operator/tables?limit=100", timeout=60,
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


def screenshot(server: Server, path: Path) -> None:
    """Run `courtside console` against the server and save a PNG of the court board."""
    from playwright.sync_api import sync_playwright

    port = free_port()
    console = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "console", "--api-url", server.url, "--port", str(port)],
        cwd=ROOT, env=dict(os.environ) | {"COURTSIDE_DATA_DIR": str(server.data_dir)},
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/_stcore/health", console)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=[
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync"])
            page = browser.new_page(viewport={"width": 1440, "height": 1100})
            page.goto(f"http://127.0.0.1:{port}/")
            page.get_by_text("Manage a table").wait_for(timeout=60_000)
            page.wait_for_timeout(1500)  # let fonts and icons settle before the picture
            page.screenshot(path=str(path), full_page=False)
            browser.close()
    finally:
        console.send_signal(signal.SIGTERM)
        console.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--screenshot", type=Path, help="save a PNG of a small court board here instead")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="courtside-bench-console-") as tmp:
        server = Server(Path(tmp) / "data")
        try:
            if args.screenshot:
                seed(server, tables=6, matches=27, in_play=4)
                screenshot(server, args.screenshot)
                print(json.dumps({"screenshot": str(args.screenshot)}))
            else:
                seed(server, tables=args.tables, matches=args.matches, in_play=min(args.tables, 20))
                result = bench(server, args.runs)
                print(json.dumps({"tables": args.tables, "matches": args.matches, "runs": args.runs} | result))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
