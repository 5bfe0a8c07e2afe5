"""Outputs benchmark (contract §10) on a real server:

1. score change -> visible in a real browser page (headless chromium, court output): p50/p95 over N points;
2. API p95 (GET /operator/tables + score posts) with 0 and with 200 open outputs, as a ratio. The open pages are
   wrk connections doing exactly what a page does (GET /state with If-None-Match, then wait 400 ms): one wrk
   process per output URL, so each keeps that URL's ETag. Idle and loaded phases alternate (3 each), so machine
   noise hits both alike; the probe is one client thread in this process.

    .venv/bin/python -m bench.bench_outputs [points=100] [pages=200]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from bench.browser_support import headless_browser
from bench.outputs_support import Day, pct, running_server, seed_day
from tests.server_process import ServerProcess


def visible_latency(server: ServerProcess, day: Day, points: int) -> list[float]:
    match_id = day.matches["d1"]["id"]
    latencies = []
    with headless_browser() as browser:
        page = browser.new_page(viewport={"width": 1920, "height": 1080}, bypass_csp=True)  # for wait_for_function
        page.goto(day.url("classic", "Court 1"))
        for n in range(points):
            b = n % 9  # 10 points ahead never wins the game: always a live game
            games = [{"a": 11, "b": 8}, {"a": 9, "b": 11}, {"a": 10, "b": b}]
            started = time.perf_counter()
            server.call("POST", f"/operator/matches/{match_id}/score", {"gameScores": games})
            page.wait_for_function(
                f"document.querySelector('.bug .row.b .points').textContent === '{b}'", polling="raf", timeout=5000)
            latencies.append(time.perf_counter() - started)
    return latencies


POLLER_LUA = r"""
function init(args)
  etag = nil
end
function request()
  if etag then
    return wrk.format("GET", nil, {["If-None-Match"] = etag})
  end
  return wrk.format("GET", nil)
end
function response(status, headers, body)
  local tag = headers["Etag"] or headers["ETag"]  -- waitress title-cases header names
  if tag then etag = tag end
end
function delay()
  return 400
end
"""


def pollers(urls: list[str], pages: int, seconds: int, script: Path) -> list[subprocess.Popen[bytes]]:
    """`pages` open outputs for `seconds`: wrk connections spread over the output URLs, one process per URL."""
    processes = []
    for index, url in enumerate(urls):
        connections = pages // len(urls) + (1 if index < pages % len(urls) else 0)
        if connections:
            processes.append(subprocess.Popen(
                ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-s", str(script), url + "/state"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return processes


def probe(server: ServerProcess, day: Day, seconds: float) -> list[float]:
    """The operator's API calls (tables read and score post, alternately) for `seconds`: each call's duration."""
    session = requests.Session()
    headers = {"Authorization": f"Bearer {server.operator_key}"}
    match_id = day.matches["s2"]["id"]
    timings = []
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline:
        n += 1
        started = time.perf_counter()
        if n % 2:
            session.get(server.root + "/api/v1/operator/tables", headers=headers, timeout=30)
        else:
            session.post(server.root + f"/api/v1/operator/matches/{match_id}/score", headers=headers, timeout=30,
                         json={"gameScores": [{"a": n % 10, "b": 6}]})
        timings.append(time.perf_counter() - started)
        time.sleep(0.02)
    return timings


def api_p95(server: ServerProcess, day: Day, pages: int, phase: int = 6, rounds: int = 3) -> tuple[float, float]:
    """API p95 with no open output and with `pages`, phases alternating."""
    urls = [o["url"] for o in day.outputs]
    idle: list[float] = []
    loaded: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "poller.lua"
        script.write_text(POLLER_LUA)
        for _ in range(rounds):
            idle += probe(server, day, phase)
            running = pollers(urls, pages, phase + 2, script)
            time.sleep(1)  # every page has loaded its state once
            loaded += probe(server, day, phase)
            for process in running:
                process.wait()
    return pct(idle, 0.95), pct(loaded, 0.95)


def main() -> None:
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    pages = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    with running_server() as server:
        day = seed_day(server)
        latencies = visible_latency(server, day, points)
        print(f"score -> visible in the page over {points} points: p50 {statistics.median(latencies) * 1000:.0f} ms,"
              f" p95 {pct(latencies, 0.95) * 1000:.0f} ms")
        base, loaded = api_p95(server, day, pages)
        print(f"API p95: {base * 1000:.1f} ms with 0 open outputs, {loaded * 1000:.1f} ms with {pages}: "
              f"ratio {loaded / base:.2f}")


if __name__ == "__main__":
    main()
