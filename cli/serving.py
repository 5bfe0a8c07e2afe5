"""How `serve` listens (contract §8a): waitress, set up for a venue's network.

- Up to `COURTSIDE_CONNECTION_LIMIT` open connections (waitress's default of 100 let a hall of sleeping phones
  stall every new client), watched with poll() instead of select() (which stops at 1,024 descriptors), and the
  process's open-file limit raised to its hard limit to hold them.
- A body-less answer (`304 Not Modified`, `204`) keeps its keep-alive connection: waitress 3.0 closes it because
  it has no Content-Length, so every conditional poll of an output or event page cost a new TCP connection.
- Forwarded headers reach the app when `COURTSIDE_TRUSTED_PROXIES` is set (waitress 3 clears them by default,
  before the app's ProxyFix could read them); without trusted proxies waitress still clears them.
- A public feed's poll is answered in waitress's network loop, as soon as it is parsed, from the app's kept
  snapshots (`CourtsideFlask.kept_feed_answer`): `304` while the page's ETag is current (most polls of a venue's
  screens and phones), else `200` with the kept body; no worker thread, no WSGI environ, no Flask. Only the first
  poll after a change builds the snapshot in a worker. The worker threads stay free for the operator and the
  partners, who then do not queue behind hundreds of pollers (§8a, docs/decisions.md).

The whole waitress adapter is this one module: everything here leans on waitress 3's internals (its channel and
task classes, its server's `asyncore` loop hook and `add_task`, `wasyncore.readwrite`), which are not a public API.
pyproject.toml pins waitress to its major (`waitress>=3,<4`), and `check_waitress` names every assumption: `serve`
runs it before listening and refuses to start with a clear message if one stops holding, and
tests/e2e/test_waitress_adapter.py runs it (and the assumptions it cannot read off the classes) in the suite.

The network loop on one persistent `epoll` set (Linux), for a venue's thousand open connections: waitress's own
loop (`wasyncore.poll2`) builds a new poll set on every turn, asking every connection whether it is readable and
writable: with 1,500 connections open (phones asleep on the Wi-Fi, screens polling) that is 1,500 Python calls per
turn, and a venue turns the loop hundreds of times a second, all under the GIL the operator's requests need.
`EpollLoop` keeps the set between turns and asks again only the connections that can have changed: those with an
event in the last turn, those opened or closed since (our channel reports them), and those a worker thread is
serving (a request or output pending) — an idle keep-alive connection changes only when it receives something.
Every second it asks every connection once more, which catches waitress's maintenance closing idle connections.
Dispatching is waitress's own (`wasyncore.readwrite`), so behaviour is unchanged. Elsewhere (no `epoll`),
waitress's loop runs as before.
"""

from __future__ import annotations

import inspect
import logging
import resource
import select
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, MultiSocketServer, create_server
from waitress.task import WSGITask
from waitress.utilities import build_http_date

from api.context import FeedAnswer
from api.platform import log_access, wanted_wait
from domain.settings import Settings

WAITRESS_MAJOR = 3  # the major pyproject.toml pins; another one is refused by `check_waitress`
log = logging.getLogger("courtside.serving")
FULL_EVERY = 1.0  # seconds between turns of `EpollLoop` that ask every connection
TICK = 0.02  # seconds between the loop's looks at the held polls while the store changes
SETTLE = 0.5  # seconds the held polls are looked at every tick after the store changed (kept states may lag)



class WaitressChanged(RuntimeError):
    """waitress no longer is what this adapter was written against (see `check_waitress`)."""


def waitress_assumptions() -> list[str]:
    """Every assumption of this adapter about waitress that does not hold, in words (empty: all hold).

    Read off waitress's classes and functions: what we subclass or override (`HTTPChannel.task_class`,
    `add_channel`/`del_channel`, `WSGITask.set_close_on_finish`/`has_body`), what we read or write of a channel
    and a server, and that a server's `run` turns `self.asyncore.loop(...)` (the hook `EpollLoop` takes)."""
    wrong: list[str] = []
    installed = version("waitress")
    if installed.split(".")[0] != str(WAITRESS_MAJOR):
        wrong.append(f"waitress {installed} is installed; this adapter is written for waitress {WAITRESS_MAJOR}.x")
    needed: list[tuple[Any, str]] = [
        (HTTPChannel, "task_class"), (HTTPChannel, "add_channel"), (HTTPChannel, "del_channel"),
        (HTTPChannel, "write_soon"), (HTTPChannel, "total_outbufs_len"), (HTTPChannel, "will_close"),
        (HTTPChannel, "close_when_flushed"), (HTTPChannel, "last_activity"), (HTTPChannel, "readable"),
        (HTTPChannel, "writable"), (HTTPChannel, "connected"),
        (WSGITask, "set_close_on_finish"), (WSGITask, "has_body"),
        (BaseWSGIServer, "channel_class"), (BaseWSGIServer, "add_task"), (BaseWSGIServer, "asyncore"),
        (MultiSocketServer, "asyncore"),
        (wasyncore, "readwrite"), (wasyncore, "dispatcher"),
    ]
    for owner, name in needed:
        if not hasattr(owner, name):
            wrong.append(f"{getattr(owner, '__name__', owner)}.{name} is gone")
    if not isinstance(getattr(WSGITask, "has_body", None), property):
        wrong.append("WSGITask.has_body is no longer a property")
    if HTTPChannel.task_class is not WSGITask:
        wrong.append("HTTPChannel.task_class is no longer WSGITask")
    # read off waitress's source where it can be read (an install without sources skips these three; the real
    # server test in tests/e2e/test_waitress_adapter.py checks the same behaviour by running it)
    for server_class in (BaseWSGIServer, MultiSocketServer):
        if not _says(server_class, "run", "self.asyncore.loop("):
            wrong.append(f"{server_class.__name__}.run no longer turns self.asyncore.loop(...)")
    if not _says(HTTPChannel, "received", "self.server.add_task(self)"):
        wrong.append("HTTPChannel.received no longer hands a parsed request over by server.add_task(channel)")
    if not _says(HTTPChannel, "__init__", "self.requests_lock = threading.Lock()"):
        wrong.append("HTTPChannel no longer guards its requests with requests_lock (a held feed poll needs it)")
    if not _says(HTTPChannel, "service", "self.requests.pop(0)"):
        wrong.append("HTTPChannel.service no longer pops each request it answered from channel.requests")
    if not _says(BaseWSGIServer, "handle_accept", "self.channel_class("):
        wrong.append("BaseWSGIServer.handle_accept no longer makes its connections from channel_class")
    return wrong


def _says(owner: type, name: str, text: str) -> bool:
    """Whether waitress's `owner.name` still contains `text` (True when its source cannot be read)."""
    if not hasattr(owner, name):
        return False
    source = _source(owner, name)
    return not source or text in source


def _source(owner: type, name: str) -> str:
    """The source of waitress's `owner.name` ("" when gone or unreadable: then the assumption is reported)."""
    try:
        return inspect.getsource(getattr(owner, name))
    except (AttributeError, OSError, TypeError):
        return ""


def check_waitress() -> None:
    """Refuse to serve on a waitress this adapter was not written for (raises `WaitressChanged`, naming each
    assumption that stopped holding), rather than serve a venue with a silently broken loop."""
    wrong = waitress_assumptions()
    if wrong:
        raise WaitressChanged("the waitress adapter (cli/serving.py) needs checking: " + "; ".join(wrong))


class KeepAliveTask(WSGITask):  # type: ignore[misc]
    """A WSGI task that does not close an HTTP/1.1 keep-alive connection after a response without a body."""

    def set_close_on_finish(self) -> None:
        keep = (not self.has_body and self.version == "1.1"
                and self.request.headers.get("CONNECTION", "").lower() != "close")
        if not keep:
            super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]
    """waitress's channel with `KeepAliveTask`, telling the server's `EpollLoop` (if any) when it opens or
    closes, so the loop asks only changed connections for their state."""

    task_class = KeepAliveTask

    def add_channel(self, map: Any = None) -> None:
        super().add_channel(map)
        self._report(self._fileno)

    def del_channel(self, map: Any = None) -> None:
        fd = self._fileno
        super().del_channel(map)
        self._report(fd)

    def _report(self, fd: int | None) -> None:
        loop = getattr(self.server, "venue_loop", None)
        if loop is not None:
            loop.opened_or_closed(fd)


FeedAnswers = Callable[[str, str, str | None, str | None], FeedAnswer | None]


FeedStamp = Callable[[], Hashable]
FeedBuild = Callable[[str], None]
FreshAnswers = Callable[[str, str, str | None, str | None], FeedAnswer | None]


class FeedBuilder:
    """One thread that builds the feeds whose held polls wait for a state the app has not built yet (the app's
    `build_kept_feed`), each path once however many polls wait for it: the held polls never take a worker, and
    the loop answers them from memory once the state is kept."""

    def __init__(self, build: FeedBuild) -> None:
        self.build = build
        self.wanted: deque[str] = deque()
        self.pending: set[str] = set()  # asked or being built (the loop reads it; the thread removes when built)
        self.done: set[str] = set()  # built since the loop last looked (it forgets them after each look)
        self._wake = threading.Event()
        threading.Thread(target=self._run, name="courtside-feed-builder", daemon=True).start()

    def ask(self, path: str) -> None:
        if path not in self.pending:
            self.pending.add(path)
            self.wanted.append(path)
            self._wake.set()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            while self.wanted:
                path = self.wanted.popleft()
                try:
                    self.build(path)
                except Exception:  # a bug in a feed's build: its held polls are answered when their wait ends
                    log.exception("building the kept state of a held feed failed")
                finally:
                    self.done.add(path)
                    self.pending.discard(path)


@dataclass
class Held:
    """A feed poll held in the network loop until its feed changes or its wait ends (`Prefer: wait=N`)."""

    channel: HTTPChannel
    request: Any
    path: str
    tag: str | None
    request_id: str | None
    wait: int
    until: float
    started: float


class AnswerKeptFeedsInLoop:
    """The server's `add_task`, called by a channel in the network loop when a request is parsed: a feed poll
    that `answers` answers from memory is written to the channel at once; anything else goes to a worker.

    A poll that would be a `304` and asks `Prefer: wait=N` (the live pages send it) is held instead, by the loop and
    no thread (issue 52: a point reached an overlay after p50 221 ms of 400 ms polling): while the store changes
    (`stamp`, the app's store version) the loop looks at the held polls every `TICK`, and answers each as soon as
    its feed has a new state (`200`, with `Preference-Applied: wait=N`), or `304` when the wait ends. A feed whose
    state is not kept for the new version goes to a worker with one of its held polls (the app builds the state;
    the others take it from memory on the next tick). Only with `EpollLoop` (it turns `turn`); elsewhere polls
    are answered at once as before, and the pages poll.

    With `log_each`, every poll answered here gets its access-log line as a request the app answers does (§8a:
    method, path, status, ms, request ID; queued, so the log thread redacts the key and writes it)."""

    def __init__(self, hand_over: Callable[[HTTPChannel], None], answers: FeedAnswers, *,
                 log_each: bool = False, loop: EpollLoop | None = None, stamp: FeedStamp | None = None,
                 fresh: FreshAnswers | None = None, build: FeedBuild | None = None) -> None:
        self.hand_over = hand_over
        self.answers = answers
        self.fresh = fresh or answers
        self.builder = FeedBuilder(build) if build is not None and loop is not None else None
        self.log_each = log_each
        self.stamp = stamp
        self.can_hold = loop is not None
        self.held: list[Held] = []
        self.arriving: deque[Held] = deque()  # polls held from a worker's thread (pipelined), taken by `turn`
        self._seen: Hashable = None
        self._look_until = 0.0
        if loop is not None:
            loop.turns.append(self)

    def __call__(self, channel: HTTPChannel) -> None:
        if not self._answered(channel):
            self.hand_over(channel)

    def _answered(self, channel: HTTPChannel) -> bool:
        # Called with the channel's requests_lock held and this request the only one: no worker serves it yet.
        request = channel.requests[0]
        if (request.error or request.version != "1.1" or len(channel.requests) != 1 or not channel.connected
                or channel.total_outbufs_len  # an earlier answer still being sent: keep the order simple
                or request.headers.get("CONNECTION", "").lower() == "close"):
            return False
        started = time.perf_counter()
        tag, request_id = request.headers.get("IF_NONE_MATCH"), request.headers.get("SERVICE_REQUEST_ID")
        answer = self.answers(request.command, request.path, tag, request_id)
        if answer is None:
            return False
        wait = wanted_wait(request.headers.get("PREFER")) if self.can_hold else None
        if wait is not None and answer.status.startswith("304"):
            self.arriving.append(Held(channel, request, request.path, tag, request_id, wait,
                                      time.monotonic() + wait, started))
            return True
        self._write(channel, request, answer, started)
        return True

    def _write(self, channel: HTTPChannel, request: Any, answer: FeedAnswer, started: float) -> None:
        """Write `answer` to the channel and retire its request (the channel's requests_lock held)."""
        if self.log_each:  # before the answer leaves: a client that has it finds its line queued
            log_access(request.command, request.path, answer.status[:3], (time.perf_counter() - started) * 1000,
                       answer.request_id)
        head = "".join(f"{name}: {value}\r\n" for name, value in answer.headers)
        channel.write_soon(f"HTTP/1.1 {answer.status}\r\n{head}Date: {build_http_date(time.time())}\r\n"
                           "Server: waitress\r\n\r\n".encode("latin-1") + answer.body)
        request.close()
        channel.requests.pop(0)
        channel.last_activity = time.time()

    def holding(self) -> bool:
        """Whether the loop should turn every `TICK` (polls are held)."""
        return bool(self.held or self.arriving)

    def turn(self) -> None:
        """In the loop, each turn: answer the held polls whose feed changed or whose wait ended."""
        now = time.monotonic()
        while self.arriving:  # a new poll may have been answered from a state `max_stale` behind: look at once
            self.held.append(self.arriving.popleft())
            self._look_until = max(self._look_until, now + TICK)
        if not self.held:
            return
        stamp = self.stamp() if self.stamp is not None else now
        if stamp != self._seen:
            self._seen, self._look_until = stamp, now + SETTLE
        looking = now < self._look_until or bool(self.builder and self.builder.pending)
        building: set[str] = set()
        kept: list[Held] = []
        for held in self.held:
            if self._still_held(held, now, looking, building):
                kept.append(held)
        self.held = kept
        if self.builder is not None and looking:
            self.builder.done.clear()

    def _still_held(self, held: Held, now: float, looking: bool, building: set[str]) -> bool:
        channel = held.channel
        if not channel.connected or channel.will_close or channel.close_when_flushed:
            return False  # the page went away: waitress closes the channel and its requests
        if not looking and now < held.until:
            return True
        answer = self.fresh("GET", held.path, held.tag, held.request_id)
        if answer is None and self.builder is not None:  # not kept for the store as it is now: build it
            if now < held.until and held.path not in self.builder.done:
                self.builder.ask(held.path)
                return True
            # the wait ended, or a build left nothing kept (a rotated link, the store moved on): what is kept, else
            # the app answers it
            answer = self.answers("GET", held.path, held.tag, held.request_id)
        if answer is None:  # nothing kept (or no builder): the app answers it in a worker, once per feed a turn
            if held.path in building:
                return True
            building.add(held.path)
            with channel.requests_lock:
                self.hand_over(channel)
            return False
        if answer.status.startswith("304") and now < held.until:
            return True
        applied = FeedAnswer(answer.status, [*answer.headers, ("Preference-Applied", f"wait={held.wait}")],
                             answer.body)
        with channel.requests_lock:
            self._write(channel, held.request, applied, held.started)
            if channel.requests:  # a pipelined request arrived meanwhile: a worker serves it
                self.hand_over(channel)
        return False


def raise_open_file_limit(wanted: int) -> None:
    """Let this process hold `wanted` connections (up to the hard limit the system allows)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, max(soft, wanted)) if hard != resource.RLIM_INFINITY else max(soft, wanted)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def venue_server(app: Any, settings: Settings) -> BaseWSGIServer | MultiSocketServer:
    """The waitress server for `app` with the venue settings (raises OSError when it cannot listen, and
    `WaitressChanged` when the installed waitress breaks an assumption of this adapter)."""
    check_waitress()
    raise_open_file_limit(settings.connection_limit + 256)
    server = create_server(app, host=settings.host, port=settings.port, threads=settings.threads,
                           connection_limit=settings.connection_limit, asyncore_use_poll=True,
                           channel_timeout=settings.idle_timeout, backlog=2048,
                           # far above ours, so that our own limit answers with the JSON envelope
                           max_request_header_size=16 * settings.max_header_bytes,
                           # waitress drops X-Forwarded-* unless told to keep them; with trusted proxies the app's
                           # ProxyFix (api/app.py) believes exactly COURTSIDE_TRUSTED_PROXIES of them (§8a)
                           clear_untrusted_proxy_headers=settings.trusted_proxies == 0)
    answers: FeedAnswers | None = getattr(app, "kept_feed_answer", None)
    listeners = [server] if isinstance(server, BaseWSGIServer) else [
        listening for listening in getattr(server, "map", {}).values() if isinstance(listening, BaseWSGIServer)]
    if not listeners:  # a MultiSocketServer without its map of listening servers: nothing would be adapted
        server.close()
        raise WaitressChanged("the waitress adapter (cli/serving.py) needs checking: a MultiSocketServer no longer "
                              "keeps its listening servers in .map")
    loop = EpollLoop() if epoll_available() else None
    if loop is not None:
        server.asyncore = loop  # its run() turns this loop instead of waitress's
    for listening in listeners:
        listening.channel_class = KeepAliveChannel
        listening.venue_loop = loop
        if answers is not None:
            listening.add_task = AnswerKeptFeedsInLoop(
                listening.add_task, answers, log_each=settings.access_log, loop=loop,
                stamp=getattr(app, "kept_feed_stamp", None), build=getattr(app, "build_kept_feed", None),
                fresh=_fresh_answers(app) if hasattr(app, "build_kept_feed") else None)
    return server


def _fresh_answers(app: Any) -> FreshAnswers:
    """The app's kept answers built for the store as it is now (`kept_feed_answer(..., fresh=True)`)."""

    def answer(method: str, path: str, tag: str | None, request_id: str | None) -> FeedAnswer | None:
        found: FeedAnswer | None = app.kept_feed_answer(method, path, tag, request_id, fresh=True)
        return found

    return answer


def epoll_available() -> bool:
    """Whether this system has `epoll` (Linux): else waitress's own loop runs."""
    return hasattr(select, "epoll")


class EpollLoop:
    """Stands in for the `wasyncore` module as a waitress server's `asyncore` (it calls `.loop(...)`)."""

    dispatcher = wasyncore.dispatcher

    def __init__(self) -> None:
        self.changed: set[int] = set()  # file descriptors opened or closed since the last turn (any thread adds)
        self.turns: list[AnswerKeptFeedsInLoop] = []  # called after every turn; they may ask for a short one

    def opened_or_closed(self, fd: int | None) -> None:
        if fd is not None:
            self.changed.add(fd)

    def loop(self, timeout: float = 30.0, use_poll: bool = False, map: dict[int, Any] | None = None,
             count: int | None = None) -> None:
        if map is None:
            raise ValueError("a waitress server passes its map")
        epoll = select.epoll()
        registered: dict[int, int] = {}
        watch: set[int] = set()  # connections that can change without an event of their own
        events: list[tuple[int, int]] = []
        next_full = 0.0

        def forget(fd: int) -> None:
            registered.pop(fd, None)
            try:
                epoll.unregister(fd)
            except (OSError, ValueError):
                pass  # closed already: the kernel dropped it from the set

        def set_mask(fd: int, mask: int) -> None:
            if registered.get(fd, 0) == mask:
                return
            if not mask:
                forget(fd)
                return
            try:
                if fd in registered:
                    epoll.modify(fd, mask)
                else:
                    epoll.register(fd, mask)
            except FileNotFoundError:  # the descriptor number was closed and reused: a new registration
                epoll.register(fd, mask)
            except FileExistsError:
                epoll.modify(fd, mask)
            registered[fd] = mask

        try:
            while map:
                fresh: set[int] = set()
                while self.changed:
                    fresh.add(self.changed.pop())
                for fd in fresh:  # closed, and maybe its number reused by a new connection: register anew
                    forget(fd)
                now = time.monotonic()
                if now >= next_full:
                    next_full = now + FULL_EVERY
                    asked = set(map) | set(registered) | fresh
                else:
                    asked = watch | fresh | {fd for fd, _ in events}
                for fd in asked:
                    obj = map.get(fd)
                    if obj is None:
                        set_mask(fd, 0)
                        watch.discard(fd)
                        continue
                    # busy first: a worker finishing between the questions below leaves the connection watched
                    # (its trigger wakes the next turn); a connection asked for nothing is always watched
                    busy = _busy(obj)
                    mask = 0
                    if obj.readable():
                        mask |= select.EPOLLIN | select.EPOLLPRI
                    if obj.writable() and not obj.accepting:
                        mask |= select.EPOLLOUT
                    set_mask(fd, mask)
                    if busy or not mask:
                        watch.add(fd)
                    else:
                        watch.discard(fd)
                holding = any(hook.holding() for hook in self.turns)
                events = epoll.poll(min(timeout, TICK) if holding else timeout)
                for fd, flags in events:
                    obj = map.get(fd)
                    if obj is not None:
                        wasyncore.readwrite(obj, flags)  # epoll's bits are poll's on Linux
                for hook in self.turns:
                    hook.turn()
        finally:
            epoll.close()


def _busy(obj: Any) -> bool:
    """Whether the dispatcher's readable/writable can change without an event of its own: the listening
    sockets and the trigger always (cheap, few); a connection while a request or output is pending."""
    if not isinstance(obj, HTTPChannel):
        return True
    return bool(getattr(obj, "requests", None) or obj.total_outbufs_len or obj.will_close
                or obj.close_when_flushed)
