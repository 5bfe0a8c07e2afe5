"""waitress's network loop on one persistent `epoll` set (Linux), for a venue's thousand open connections (§8a).

waitress's own loop (`wasyncore.poll2`) builds a new poll set on every turn, asking every connection whether it
is readable and writable: with 1,500 connections open (phones asleep on the Wi-Fi, screens polling) that is
1,500 Python calls per turn, and a venue turns the loop hundreds of times a second, all under the GIL the
operator's requests need. This loop keeps the set between turns and asks again only the connections that can
have changed: those with an event in the last turn, those opened or closed since (our channel reports them), and
those a worker thread is serving (a request or output pending) — an idle keep-alive connection changes only when
it receives something. Every second it asks every connection once more, which catches waitress's maintenance
closing idle connections. Dispatching is waitress's own (`wasyncore.readwrite`), so behaviour is unchanged.
Elsewhere (no `epoll`), waitress's loop runs as before.
"""

from __future__ import annotations

import select
import time
from typing import Any

from waitress import wasyncore
from waitress.channel import HTTPChannel

FULL_EVERY = 1.0  # seconds between turns that ask every connection


def available() -> bool:
    return hasattr(select, "epoll")


class EpollLoop:
    """Stands in for the `wasyncore` module as a waitress server's `asyncore` (it calls `.loop(...)`)."""

    dispatcher = wasyncore.dispatcher

    def __init__(self) -> None:
        self.changed: set[int] = set()  # file descriptors opened or closed since the last turn (any thread adds)

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
                events = epoll.poll(timeout)
                for fd, flags in events:
                    obj = map.get(fd)
                    if obj is not None:
                        wasyncore.readwrite(obj, flags)  # epoll's bits are poll's on Linux
        finally:
            epoll.close()


def _busy(obj: Any) -> bool:
    """Whether the dispatcher's readable/writable can change without an event of its own: the listening
    sockets and the trigger always (cheap, few); a connection while a request or output is pending."""
    if not isinstance(obj, HTTPChannel):
        return True
    return bool(getattr(obj, "requests", None) or obj.total_outbufs_len or obj.will_close
                or obj.close_when_flushed)
