"""The access log's cost (contract §8a, issue 37 point 11), both figures of its goal in one run, access log ON:

1. `venue_full_mix_p95_over_idle`: the API p95 of one operator client (bench.venue's probe) with the full venue
   mix open at once (1,000 idle keep-alive connections, 200 output pages polling every 0.5 s, 300 event pages every
   5 s; wrk) over the same probe with nothing else connected. Goal: <= 1.3.
2. `get_match_over_bare`: authenticated `GET /matches/{externalID}` requests per second of `courtside serve` over a
   bare Flask GET under waitress (bench.bench_http's `bare`), wrk side by side. Goal: >= 0.75.

Every server logs to a file, as `courtside serve` does (ServerProcess's log), so the access log's lines are really
written. Idle/full and bare/ours alternate within each round (machine noise hits both alike); each figure is the
median of its rounds. `--access-log false` gives the same figures with the access log off (for comparison).

    .venv/bin/python -m bench.bench_access_log [--rounds 3] [--samples 200] [--seconds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_http import GET_LUA, call, wait_ready, wrk
from bench.outputs_support import seed_day
from bench.venue import (
    EVENT_EVERY,
    EVENT_PAGES,
    IDLE_CONNECTIONS,
    OUTPUT_EVERY,
    OUTPUT_PAGES,
    POLLER_LUA,
    measured,
    pollers,
    probe,
)
from cli.serving import raise_open_file_limit
from tests.server_process import ServerProcess, free_port, stop_process

ROOT = Path(__file__).resolve().parent.parent
THREADS = 8


def server(parent: Path, name: str, access_log: str) -> ServerProcess:
    env = dict(os.environ, COURTSIDE_ACCESS_LOG=access_log, COURTSIDE_THREADS=str(THREADS),
               COURTSIDE_DEV_KEY_RATE_LIMIT=str(10**9), COURTSIDE_RATE_LIMIT=str(10**9))
    return ServerProcess(parent / name / "data", free_port(), env).start()


def venue_ratio(parent: Path, work: Path, rounds: int, samples: int, access_log: str) -> dict[str, Any]:
    """Idle p95 and full-mix p95 (ms), alternating, and their ratio."""
    venue = server(parent, "venue", access_log)
    try:
        script = work / "poller.lua"
        script.write_text(POLLER_LUA)
        day = seed_day(venue)
        event = venue.call("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/enable")["data"]["url"]
        outputs = [str(o["url"]) + "/state" for o in day.outputs]
        feeds = {url: (OUTPUT_PAGES // len(outputs) + (1 if i < OUTPUT_PAGES % len(outputs) else 0), OUTPUT_EVERY)
                 for i, url in enumerate(outputs)}
        feeds[event + "/state"] = (EVENT_PAGES, EVENT_EVERY)
        probe(venue, day, 50)  # warm up
        idle, full = [], []
        for _ in range(rounds):
            idle.append(measured(venue, day, samples)[0])
            sleeping = [socket.create_connection(("127.0.0.1", venue.port)) for _ in range(IDLE_CONNECTIONS)]
            running = pollers(feeds, int(samples * 0.05) + 10, script)
            time.sleep(2)  # every page has loaded its state once
            full.append(measured(venue, day, samples)[0])
            for process in running:
                process.kill()
                process.wait()
            for sock in sleeping:
                sock.close()
        return {"idle_p95_ms": [round(v, 2) for v in idle], "full_p95_ms": [round(v, 2) for v in full],
                "ratio": round(statistics.median(full) / statistics.median(idle), 3)}
    finally:
        venue.stop()


def get_ratio(parent: Path, work: Path, rounds: int, seconds: int, access_log: str) -> dict[str, Any]:
    """Ours and bare GET requests per second, alternating, and the median of the per-round ratios."""
    (work / "get.lua").write_text(GET_LUA)
    bare_port = free_port()
    bare = subprocess.Popen([sys.executable, str(ROOT / "bench" / "bench_http.py"), "--serve-bare", str(bare_port),
                             "--threads", str(THREADS)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    ours = server(parent, "get", access_log)
    try:
        wait_ready(bare_port, "/api/v1/matches/m0", bare)
        key = call(ours.port, "POST", "/operator/keys", ours.operator_key, {"name": "bench"})["data"]["key"]
        table = call(ours.port, "POST", "/broadcasts", key, {"name": "Bench", "tables": [{"label": "C"}]})
        call(ours.port, "PUT", "/player-lists", key, {"externalID": "pl", "name": "Entrants", "players": [
            {"externalID": f"p{n}", "firstName": "Player", "lastName": str(n)} for n in range(2)]})
        call(ours.port, "PUT", "/matches", key, {"externalID": "m0", "tableID": table["data"]["tables"][0]["id"],
                                                "playerListExternalID": "pl", "playerA": {"externalID": "p0"},
                                                "playerB": {"externalID": "p1"}})
        options = {"seconds": seconds, "threads": 2, "connections": 16}
        ours_url, bare_url = f"http://127.0.0.1:{ours.port}/api/v1/matches/m0", \
            f"http://127.0.0.1:{bare_port}/api/v1/matches/m0"
        wrk(ours_url, work / "get.lua", [key], **options)  # warm up
        wrk(bare_url, work / "get.lua", ["x"], **options)
        rps: dict[str, list[float]] = {"bare": [], "ours": []}
        for _ in range(rounds):
            for name, url, token in (("bare", bare_url, "x"), ("ours", ours_url, key)):
                result = wrk(url, work / "get.lua", [token], **options)
                assert result["non_2xx"] == 0, result
                rps[name].append(result["rps"])
        return {"rps": {k: [round(v) for v in values] for k, values in rps.items()},
                "ratio": round(statistics.median(o / b for o, b in zip(rps["ours"], rps["bare"], strict=True)), 3)}
    finally:
        ours.stop()
        stop_process(bare)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--samples", type=int, default=200, help="probe requests per venue phase")
    parser.add_argument("--seconds", type=int, default=3, help="duration of one wrk GET run")
    parser.add_argument("--access-log", default="true", choices=["true", "false"])
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        sys.exit("wrk is needed (Debian: apt-get install wrk)")
    raise_open_file_limit(IDLE_CONNECTIONS + 1024)
    memory = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=memory if memory.is_dir() else None) as tmp, \
            tempfile.TemporaryDirectory() as work:
        venue = venue_ratio(Path(tmp), Path(work), args.rounds, args.samples, args.access_log)
        get = get_ratio(Path(tmp), Path(work), args.rounds, args.seconds, args.access_log)
    print(json.dumps({
        "access_log": args.access_log == "true",
        "venue_full_mix_p95_over_idle": venue["ratio"], "get_match_over_bare": get["ratio"],
        "goals": {"venue_full_mix_p95_over_idle": "<= 1.3", "get_match_over_bare": ">= 0.75"},
        "venue": venue, "get": get,
        "reproduce": ".venv/bin/python -m bench.bench_access_log " + " ".join(sys.argv[1:]),
    }, indent=2))


if __name__ == "__main__":
    main()
