"""The one poll of the test suite: wait, within a bound, for asynchronous work to show.

A bound is not a timing assertion (performance lives in `bench/`): the timeout only stops a test that would otherwise
hang, and `gave_up` lets a poll fail at once with the real cause (a process that exited) instead of at the bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import requests

T = TypeVar("T")


def eventually(check: Callable[[], T | None], *, timeout: float = 30, interval: float = 0.05,
               gave_up: Callable[[], str | None] | None = None) -> T:
    """Call `check` until it returns something truthy and return that; fail after `timeout` seconds.

    `gave_up` is asked between tries: a message from it fails the poll at once with that message.
    """
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        reason = gave_up() if gave_up is not None else None
        if reason is not None:
            raise AssertionError(reason)
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not met within {timeout} s; last value {result!r}")
        time.sleep(interval)


def answers(url: str) -> bool:
    """One try: whether `url` answers 200 now (for `eventually(lambda: answers(url))`)."""
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
