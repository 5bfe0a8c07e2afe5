"""Outputs benchmark (contract §10) on a real server:

1. score change -> visible in a real browser page (headless chromium, court output): p50/p95 over N points;
2. API p95 (GET /operator/tables + score posts) with 0 and with 200 open outputs (pollers doing exactly what a
   page does: GET /state with If-None-Match every 400 ms), as a ratio.

    .venv/bin/python -m bench.bench_outputs [points=100] [pages=200]
"""

from __future__ import annotations

import statistics
import sys
import threading
import time

import requests
from playwright.sync_api import sync_playwright

from bench.outputs_support import CHROMIUM, CHROMIUM_ARGS, Day, Server, running_server, seed_day

POLL_S = 0.4


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def visible_latency(server: Server, day: Day, points: int) -> list[float]:
    match_id = day.matches["d1"]["id"]
    latencies = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
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
        browser.close()
    return latencies


def api_p95(server: Server, day: Day, pages: int, seconds: float = 15) -> float:
    stop = threading.Event()
    urls = [o["url"] + "/state" for o in day.outputs]

    def poller(index: int) -> None:
        session, etag = requests.Session(), None
        url = urls[index % len(urls)]
        while not stop.is_set():
            response = session.get(url, headers={"If-None-Match": etag} if etag else {}, timeout=10)
            etag = response.headers.get("ETag", etag)
            stop.wait(POLL_S)

    threads = [threading.Thread(target=poller, args=(i,), daemon=True) for i in range(pages)]
    for thread in threads:
        thread.start()
    time.sleep(2)
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
    stop.set()
    for thread in threads:
        thread.join()
    return pct(timings, 0.95)


def main() -> None:
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    pages = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    with running_server() as server:
        day = seed_day(server)
        latencies = visible_latency(server, day, points)
        print(f"score -> visible in the page over {points} points: p50 {statistics.median(latencies) * 1000:.0f} ms,"
              f" p95 {pct(latencies, 0.95) * 1000:.0f} ms")
        base = api_p95(server, day, 0)
        loaded = api_p95(server, day, pages)
        print(f"API p95: {base * 1000:.1f} ms with 0 open outputs, {loaded * 1000:.1f} ms with {pages}: "
              f"ratio {loaded / base:.2f}")


if __name__ == "__main__":
    main()
