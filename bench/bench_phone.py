"""Phone scorer benchmark (contract §11) on a real server:

1. points per second one scorer link sustains (sequential taps, each naming the version the previous answer
   gave, as a phone does), beside the operator's score route on the same server in the same run (ratio);
2. tap -> visible on the court's output page: a real phone page (360x740) taps +1, a real output page (classic,
   1920x1080) shows it; p50/p95.

The per-link rate limit (300 a minute, for humans) is lifted for the run: COURTSIDE_SCORER_RATE_LIMIT=1000000.

    .venv/bin/python -m bench.bench_phone [points=300] [taps=30]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Any

import requests

from bench.browser_support import headless_browser
from bench.outputs_support import pct, running_server, seed_court
from tests.server_process import ServerProcess


def court(server: ServerProcess) -> dict[str, Any]:
    """One court with a classic output and one live match whose game never ends (alternating points)."""
    seeded = seed_court(server, scoreboards=["classic"])
    server.call("POST", f"/operator/matches/{seeded.match['id']}/start", {})
    outputs = server.call("GET", f"/operator/broadcasts/{seeded.broadcast_id}/outputs")["data"]
    return {"scorer": server.call("GET", f"/operator/tables/{seeded.table_id}/scorer")["data"]["url"],
            "output": next(o["url"] for o in outputs if o["kind"] == "court"), "match": seeded.match["id"]}


def scorer_rate(url: str, points: int) -> float:
    session = requests.Session()
    version = session.get(url + "/state", timeout=10).json()["data"]["version"]
    started = time.perf_counter()
    for n in range(points):
        response = session.post(url + "/point", json={"side": "ab"[n % 2], "version": version,
                                                         "opID": f"bench-{n}"}, timeout=10)
        assert response.status_code == 200, response.text
        version = response.json()["data"]["version"]
    return points / (time.perf_counter() - started)


def operator_rate(server: ServerProcess, match_id: str, points: int) -> float:
    session = requests.Session()
    headers = {"Authorization": f"Bearer {server.operator_key}"}
    game = dict(session.get(f"{server.root}/api/v1/operator/matches?status=active", headers=headers,
                            timeout=10).json()["data"][0]["gameScores"][-1])
    started = time.perf_counter()
    for n in range(points):
        game["ab"[n % 2]] += 1
        response = session.post(f"{server.root}/api/v1/operator/matches/{match_id}/score",
                                json={"gameScores": [game]}, headers=headers, timeout=10)
        assert response.status_code == 200, response.text
    return points / (time.perf_counter() - started)


def tap_to_output(scorer: str, output: str, taps: int) -> list[float]:
    latencies = []
    with headless_browser() as browser:
        phone = browser.new_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        screen = browser.new_page(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
        phone.goto(scorer)
        screen.goto(output)
        for _ in range(taps):
            before = phone.locator("#pts-a").text_content()
            expected = str(int(before or "0") + 1)
            started = time.perf_counter()
            phone.tap("#plus-a")
            screen.wait_for_function(
                f"document.querySelector('.bug .row.a .points').textContent === '{expected}'", polling="raf",
                timeout=5000)
            latencies.append(time.perf_counter() - started)
            phone.locator("#pts-a").filter(has_text=expected).wait_for()
            phone.tap("#plus-b")  # keep the game from ending
            phone.wait_for_function("document.getElementById('plus-b').disabled === false")
            phone.wait_for_timeout(50)
    return latencies


def main() -> None:
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    taps = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    os.environ["COURTSIDE_SCORER_RATE_LIMIT"] = "1000000"
    with running_server() as server:
        day = court(server)
        scorer = scorer_rate(day["scorer"], points)
        operator = operator_rate(server, day["match"], points)
        latencies = tap_to_output(day["scorer"], day["output"], taps)
    print(f"points/s one scorer link:   {scorer:7.1f}")
    print(f"points/s operator score:    {operator:7.1f}")
    print(f"ratio scorer / operator:    {scorer / operator:7.2f}")
    p50, p95 = statistics.median(latencies) * 1000, pct(latencies, 0.95) * 1000
    print(f"tap -> output page p50/p95: {p50:.0f} / {p95:.0f} ms ({taps} taps)")


if __name__ == "__main__":
    main()
