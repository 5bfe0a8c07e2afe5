"""Players' own pages (contract §21, issue 40's speed goal) on a real server: what 300 personal pages open and
polling cost the operator's API.

One server, one club day: 12 courts, 150 matches of 300 players (a match in play on every court, the rest queued),
each player's personal link made. Phases alternate (rounds), each measuring the API p95 of one probe client (GET
/operator/tables, GET /operator/matches?status=active, a score post: every post changes the store, so every open
page's state is built anew once after it, as on a real day):
  none      no personal page open;
  pages     + 300 personal pages, each on its own keep-alive connection, polling `/me/{key}/state` every 5 s with
            the ETag it holds (If-None-Match), as the page's script does, also in a background tab.
The pages poll from a separate process (asyncio, raw HTTP/1.1), so their own cost stays off the probe's process.
The data dir is in memory (/dev/shm, where the machine has it). The ratio is pages ÷ none in the same run; the
goal is at most 1.5. Beside each p95, the server process's CPU time during the phase (% of one core).

    .venv/bin/python -m bench.bench_personal_pages [rounds=3] [samples=200]
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bench.outputs_support import pct, running_server
from bench.venue import cpu_seconds
from bench.venue import probe_match as probe
from tests.server_process import ServerProcess

PAGES, EVERY = 300, 5.0
COURTS = 12


def seed(server: ServerProcess) -> tuple[str, list[str]]:
    """The club day; the match the probe scores and every player's `/me/{key}/state` path."""
    broadcast = server.call("POST", "/operator/broadcasts", {
        "name": "Club Day", "tables": [{"label": f"Court {n}"} for n in range(1, COURTS + 1)]})["data"]
    tables = [t["id"] for t in broadcast["tables"]]
    server.call("PATCH", f"/operator/broadcasts/{broadcast['id']}", {"eventDay": {"selfCheckIn": True,
                                                                                 "selfReport": True}})
    first: dict[str, str] = {}
    for n in range(PAGES // 2):
        table = tables[n % COURTS]
        match = server.call("POST", "/operator/matches", {
            "tableID": table, "playerA": {"manualName": f"Player {2 * n + 1:03d}"},
            "playerB": {"manualName": f"Player {2 * n + 2:03d}"}, "eventName": "Open", "bestOf": 3})["data"]
        first.setdefault(table, match["id"])
    for match_id in first.values():
        server.call("POST", f"/operator/matches/{match_id}/start", {})
    people: list[dict[str, Any]] = []
    cursor = ""
    while True:  # the people of the broadcast, page by page
        page = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people?limit=100{cursor}")
        people += page["data"]
        if not page.get("nextCursor"):
            break
        cursor = f"&cursor={page['nextCursor']}"
    assert len(people) == PAGES, len(people)
    paths = []
    for person in people:
        url = server.call("GET", f"/operator/broadcasts/{broadcast['id']}/people/{person['personID']}/link")[
            "data"]["url"]
        paths.append("/me/" + url.rsplit("/me/", 1)[1] + "/state")
    return first[tables[0]], paths


def measured(server: ServerProcess, match_id: str, samples: int) -> tuple[float, float]:
    """The probe's p95 (ms) and the server's CPU meanwhile (% of one core)."""
    assert server.process is not None
    cpu, started = cpu_seconds(server.process.pid), time.perf_counter()
    p95 = probe(server, match_id, samples)
    return p95, 100 * (cpu_seconds(server.process.pid) - cpu) / (time.perf_counter() - started)


# ------------------------------------------------------------------------------------------------ the pages
async def _page(port: int, path: str, delay: float, until: float, seen: dict[str, Any]) -> None:
    """One open page: its own keep-alive connection, a poll every EVERY seconds with the ETag it holds."""
    await asyncio.sleep(delay)  # pages were opened at different moments
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    etag = None
    while time.monotonic() < until:
        started = time.perf_counter()
        tag = f"If-None-Match: {etag}\r\n" if etag else ""
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{tag}Connection: keep-alive\r\n\r\n".encode())
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "etag":
                etag = value.strip()
        if length:
            await reader.readexactly(length)
        seen[str(status)] = seen.get(str(status), 0) + 1
        seen["ms"].append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(EVERY)
    writer.close()


async def _pages(port: int, paths: list[str], seconds: float) -> dict[str, Any]:
    seen: dict[str, Any] = {"ms": []}
    until = time.monotonic() + seconds
    await asyncio.gather(*(_page(port, path, EVERY * i / len(paths), until, seen) for i, path in enumerate(paths)))
    return seen


def _start(port: int, paths: list[str], seconds: float) -> subprocess.Popen[str]:
    """The open pages, in their own process, for `seconds`; it prints what they saw (JSON) when done."""
    process = subprocess.Popen([sys.executable, "-m", "bench.bench_personal_pages", "pages", str(port), str(seconds)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parents[1])
    assert process.stdin is not None
    process.stdin.write(json.dumps(paths))
    process.stdin.close()
    return process


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "pages":  # the pages' own process
        seen = asyncio.run(_pages(int(sys.argv[2]), json.loads(sys.stdin.read()), float(sys.argv[3])))
        print(json.dumps(seen))
        return
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    samples = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    memory = Path("/dev/shm")
    with running_server(memory if memory.is_dir() else None) as server:
        match_id, paths = seed(server)
        probe(server, match_id, 50)  # warm up
        results: dict[str, list[tuple[float, float]]] = {"none": [], "pages": []}
        polls: list[dict[str, Any]] = []
        for _ in range(rounds):
            results["none"].append(measured(server, match_id, samples))
            seconds = samples * 0.05 + 2 * EVERY + 5
            running = _start(server.port, paths, seconds)
            time.sleep(EVERY + 1)  # every page has opened and loaded its state once
            results["pages"].append(measured(server, match_id, samples))
            assert running.stdout is not None
            polls.append(json.loads(running.stdout.read()))
            running.wait(timeout=60)

    def median(phase: str, which: int) -> float:
        values = sorted(result[which] for result in results[phase])
        return values[len(values) // 2]

    none = median("none", 0)
    value = median("pages", 0)
    answered = sum(p.get("200", 0) + p.get("304", 0) for p in polls)
    unchanged = sum(p.get("304", 0) for p in polls)
    page_ms = [ms for p in polls for ms in p["ms"]]
    print("Personal pages bench (contract §21): API p95 of one operator client, median over rounds; server CPU "
          "(% of a core)")
    print(f"  {'none open':44} {none:7.2f} ms               cpu {median('none', 1):5.1f}%")
    print(f"  {f'+ {PAGES} personal pages polling every {EVERY:g} s':44} {value:7.2f} ms   ratio {value / none:.2f}"
          f"   cpu {median('pages', 1):5.1f}%")
    print(f"  the pages: {answered} polls answered ({unchanged} unchanged, 304), "
          f"{sum(len(p['ms']) for p in polls) - answered} refused; poll p95 {pct(page_ms, 0.95):.1f} ms")
    print("  goal: ratio at most 1.5")
    print("  reproduce: .venv/bin/python -m bench.bench_personal_pages " + " ".join(
        sys.argv[1:] or [str(rounds), str(samples)]))


if __name__ == "__main__":
    main()
