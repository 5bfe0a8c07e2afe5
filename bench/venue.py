"""The venue on the Wi-Fi (contract §8a, §15) on a real server: what hundreds of phones and screens cost the
operator's API.

Phases, on one server with a realistic day (bench.outputs_support.seed_day, event page open), each measuring the
API p95 of one probe client (GET /operator/tables, GET /operator/matches?status=active, a score post):
  idle      nothing else connected;
  sleeping  + 1,000 idle keep-alive connections (phones that opened a page and went to sleep);
  venue     + 200 output pages polling every 0.5 s and 300 event pages polling every 5 s, each on its own
            keep-alive connection with If-None-Match, as the pages do (an asyncio client in a second process).
Idle and loaded phases alternate (rounds), so machine noise hits both alike. Ratios are against idle in the same
run; the goal is at most 1.5 for each.

    .venv/bin/python -m bench.venue [rounds=3] [samples=200]
"""

from __future__ import annotations

import asyncio
import multiprocessing
import socket
import sys
import time
import urllib.parse
from typing import Any

import requests

from bench.outputs_support import Day, pct, running_server, seed_day
from cli.serving import raise_open_file_limit
from tests.server_process import ServerProcess

OUTPUT_PAGES, OUTPUT_EVERY = 200, 0.5
EVENT_PAGES, EVENT_EVERY = 300, 5.0
IDLE_CONNECTIONS = 1000


async def _poll(host: str, port: int, path: str, every: float, counts: dict[str, int]) -> None:
    """One open page: GET its feed on one keep-alive connection, sending back the ETag it has, every `every` s."""
    reader, writer = await asyncio.open_connection(host, port)
    etag = ""
    await asyncio.sleep(every * (hash(path) % 1000) / 1000)  # pages were opened at different moments
    while True:
        tag = f"If-None-Match: {etag}\r\n" if etag else ""
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\n{tag}\r\n".encode())
        await writer.drain()
        status = int((await reader.readline()).split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "etag":
                etag = value.strip()
            elif name.lower() == "connection" and value.strip().lower() == "close":
                counts["closed"] += 1
        if length:
            await reader.readexactly(length)
        counts[str(status)] = counts.get(str(status), 0) + 1
        await asyncio.sleep(every)


def _pollers(feeds: list[tuple[str, float]], ready: Any, report: Any) -> None:
    """The second process: every open page, until killed; prints what the server answered them."""
    raise_open_file_limit(len(feeds) + 256)
    counts: dict[str, int] = {"closed": 0}

    async def main() -> None:
        tasks = []
        for url, every in feeds:
            parts = urllib.parse.urlsplit(url)
            tasks.append(asyncio.create_task(_poll(parts.hostname or "127.0.0.1", parts.port or 80, parts.path,
                                                   every, counts)))
        ready.set()
        while True:
            await asyncio.sleep(1)
            report.put(dict(counts))

    asyncio.run(main())


def probe(server: ServerProcess, day: Day, samples: int) -> float:
    """The API p95 (ms) of one operator client doing reads and score posts."""
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {server.operator_key}"
    match_id = day.matches["d1"]["id"]
    times = []
    for n in range(samples):
        started = time.perf_counter()
        if n % 3 == 0:
            response = session.get(server.base + "/operator/tables")
        elif n % 3 == 1:
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
    with running_server() as server:
        day = seed_day(server)
        event = server.call("POST", f"/operator/broadcasts/{day.broadcast_id}/event-page/enable")["data"]["url"]
        outputs = [str(o["url"]) + "/state" for o in day.outputs]
        feeds = [(outputs[n % len(outputs)], OUTPUT_EVERY) for n in range(OUTPUT_PAGES)]
        feeds += [(event + "/state", EVENT_EVERY)] * EVENT_PAGES
        probe(server, day, 50)  # warm up
        results: dict[str, list[float]] = {"idle": [], "sleeping": [], "venue": []}
        answered: dict[str, int] = {}
        for _ in range(rounds):
            results["idle"].append(probe(server, day, samples))
            sleeping = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(IDLE_CONNECTIONS)]
            results["sleeping"].append(probe(server, day, samples))
            for sock in sleeping:
                sock.close()
            results["idle"].append(probe(server, day, samples))
            ready, report = multiprocessing.Event(), multiprocessing.Queue()
            pages = multiprocessing.Process(target=_pollers, args=(feeds, ready, report), daemon=True)
            pages.start()
            ready.wait(30)
            time.sleep(OUTPUT_EVERY * 2)
            results["venue"].append(probe(server, day, samples))
            while not report.empty():
                answered = report.get()
            pages.kill()
            pages.join()
    idle = sorted(results["idle"])[len(results["idle"]) // 2]
    print("Venue bench (contract §8a): API p95 of one operator client, median over rounds")
    print(f"  idle                                          {idle:7.2f} ms")
    for phase, label in (("sleeping", f"+ {IDLE_CONNECTIONS:,} idle keep-alive connections"),
                         ("venue", f"+ {OUTPUT_PAGES} outputs (0.5 s) and {EVENT_PAGES} event pages (5 s)")):
        value = sorted(results[phase])[len(results[phase]) // 2]
        print(f"  {label:45} {value:7.2f} ms   ratio {value / idle:.2f}")
    print(f"  pollers' answers in the last venue phase: {answered}")
    print("  reproduce: .venv/bin/python -m bench.venue " + " ".join(sys.argv[1:] or [str(rounds), str(samples)]))


if __name__ == "__main__":
    main()
