"""The real I/O behind webhook attempts: an HTTP sender (requests) and a name resolver (the OS)."""

from __future__ import annotations

import socket
import threading

import requests

from domain.webhooks import SendResult

_local = threading.local()


def _session() -> requests.Session:
    """One session per thread (requests sessions are not shared across threads), reusing connections."""
    session: requests.Session | None = getattr(_local, "session", None)
    if session is None:
        session = _local.session = requests.Session()
        session.trust_env = False  # no proxies from the environment: deliveries go where they are configured
    return session


def _refused(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError) or "refused" in str(seen).lower():
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def http_send(url: str, body: bytes, headers: dict[str, str], timeout: float) -> SendResult:
    """POST once, no redirects followed; the answer's status, or "timeout" / "connection refused" / ..."""
    try:
        with _session().post(url, data=body, headers=headers, timeout=timeout, allow_redirects=False,
                             stream=True) as response:
            return SendResult(status=response.status_code, retry_after=response.headers.get("Retry-After"))
    except requests.Timeout:
        return SendResult(error="timeout")
    except requests.ConnectionError as exc:
        return SendResult(error="connection refused" if _refused(exc) else "connection error")
    except requests.RequestException as exc:
        return SendResult(error=f"request error: {type(exc).__name__}")


def resolve_host(host: str) -> list[str]:
    """Every address the host name resolves to (raises OSError when it does not resolve)."""
    return sorted({str(info[4][0]) for info in socket.getaddrinfo(host, None)})
