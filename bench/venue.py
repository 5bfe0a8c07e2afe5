"""The venue on the Wi-Fi (contract §8a, §15) on a real server: what hundreds of phones and screens cost the
operator's API.

Phases, on one server with a realistic day (bench.outputs_support.seed_day, event page open), each measuring the
API p95 of one probe client (GET /operator/tables, GET /operator/matches?status=active, a score post):
  idle      nothing else connected;
  sleeping  + 1,000 idle keep-alive connections (phones that opened a page and went to sleep);
  venue     + 200 output pages polling every 0.5 s and 300 event pages polling every 5 s, each on its own
            keep-alive connection with If-None-Match, as the pages do (wrk, from Debian's package).
The data dir is in memory (/dev/shm, where the machine has it): an fsync there is free, so the idle p95 is the
server's own work, not a shared disk's wait, and the ratio shows what the pages cost (a disk's fsync in both phases
would make it smaller). Idle and loaded phases alternate (rounds), so machine noise hits both alike. Ratios are
against idle in the same run; the goal is at most 1.5 for each. Beside each p95, the server process's CPU time
during the phase (% of one core, from /proc): what the pages cost the server, which the p95 of a shared machine
hides.

    .venv/bin/python -m bench.venue [rounds=3] [samples=200]
    chrt -f 20 .venv/bin/python -m bench.venue ...   # on a shared machine (root): ahead of everyone else's load
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import requests

from bench.outputs_support import Day, pct, running_server, seed_day
from cli.serving import raise_open_file_limit
from tests.server_process import ServerProcess

OUTPUT_PAGES, OUTPUT_EVERY = 200, 0.5
EVENT_PAGES, EVENT_EVERY = 300, 5.0
IDLE_CONNECTIONS = 1000


POLLER_LUA = r"""
local every = tonumber(os.getenv("POLL_MS"))
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
  return every
end
"""


def pollers(feeds: dict[str, tuple[int, float]], seconds: int, script: Path) -> list[subprocess.Popen[bytes]]:
    """Open pages for `seconds`: per feed URL, one wrk process with that many keep-alive connections, each doing
    what a page does (GET the feed with the ETag it holds, then wait its poll interval). wrk is C: the pages'
    own cost stays off the measured server's CPU as far as one machine allows."""
    processes = []
    for url, (connections, every) in feeds.items():
        env = dict(os.environ, POLL_MS=str(int(every * 1000)))
        processes.append(subprocess.Popen(
            ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script), url],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
    return processes


def cpu_seconds(pid: int) -> float:
    """User + system CPU time the process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measured(server: ServerProcess, day: Day, samples: int) -> tuple[float, float]:
    """The probe's p95 (ms) and the server's CPU meanwhile (% of one core)."""
    assert server.process is not None
    cpu, started = cpu_seconds(server.process.pid), time.perf_counter()
    p95 = probe(server, day, samples)
    return p95, 100 * (cpu_seconds(server.process.pid) - cpu) / (time.perf_counter() - started)


def probe(server: ServerProcess, day: Day, samples: int) -> float:
    """The API p95 (ms) of one operator client doing reads and score posts on the day's first match."""
    return probe_match(server, day.matches["d1"]["id"], samples)


def probe_match(server: ServerProcess, match_id: str, samples: int) -> float:
    """The API p95 (ms) of one operator client doing reads and score posts (on `match_id`, in play)."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {server.operator_key}"
    times = []
    for n in range(samples):
        time.sleep(0.02)  # an operator's client, not a load generator
        started = time.perf_counter()
        if n % 4 in (0, 2):
            response = session.get(server.base + "/operator/tables")
        elif n % 4 == 1:
            response = session.get(server.base + "/operator/matches?status=active")
        else:
            games = [{"a": 11, "b": 8}, {"a": 9, "b": 11}, {"a": 10, "b": n % 9}]
            response = session.post(server.base + f"/operator/matches/{match_id}/score", json={"gameScores": games})
        assert response.status_code == 200, response.text
        times.append((time.perf_counter() - started) * 1000)
    return pct(times, 0.95)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    raise_open_file_limit(IDLE_CONNECTIONS + 512)
    memory = Path("/dev/shm")
    with running_server(memory if memory.is_dir() else None) as server, tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "poller.lua"
        script.write_text(POLLER_LUA)
        day = seed_day(server)
        event = server.call("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/enable")["data"]["url"]
        outputs = [str(o["url"]) + "/state" for o in day.outputs]
        feeds = {url: (OUTPUT_PAGES // len(outputs) + (1 if i < OUTPUT_PAGES % len(outputs) else 0), OUTPUT_EVERY)
                 for i, url in enumerate(outputs)}
        feeds[event + "/state"] = (EVENT_PAGES, EVENT_EVERY)
        probe(server, day, 50)  # warm up
        results: dict[str, list[tuple[float, float]]] = {"idle": [], "sleeping": [], "venue": []}
        for _ in range(rounds):
            results["idle"].append(measured(server, day, samples))
            sleeping = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(IDLE_CONNECTIONS)]
            results["sleeping"].append(measured(server, day, samples))
            for sock in sleeping:
                sock.close()
            results["idle"].append(measured(server, day, samples))
            running = pollers(feeds, int(samples * 0.05) + 10, script)
            time.sleep(2)  # every page has loaded its state once
            results["venue"].append(measured(server, day, samples))
            for process in running:
                process.kill()
                process.wait()
    def median(phase: str, which: int) -> float:
        values = sorted(result[which] for result in results[phase])
        return values[len(values) // 2]

    idle = median("idle", 0)
    print("Venue bench (contract §8a): API p95 of one operator client, median over rounds; server CPU (% of a core)")
    print(f"  {'idle':50} {idle:7.2f} ms               cpu {median('idle', 1):5.1f}%")
    for phase, label in (("sleeping", f"+ {IDLE_CONNECTIONS:,} idle keep-alive connections"),
                         ("venue", f"+ {OUTPUT_PAGES} outputs (0.5 s), {EVENT_PAGES} event pages (5 s)")):
        value = median(phase, 0)
        print(f"  {label:50} {value:7.2f} ms   ratio {value / idle:.2f}   cpu {median(phase, 1):5.1f}%")
    print("  reproduce: .venv/bin/python -m bench.venue " + " ".join(sys.argv[1:] or [str(rounds), str(samples)]))


if __name__ == "__main__":
    main()
