"""The SMTP sender against real servers on 127.0.0.1 (issue 47.10): a server that trickles its answers cannot keep a
message pending for ever (an overall deadline per message, then the attempt fails and is retried); a domain with
non-ASCII letters is sent in IDNA form; a non-ASCII name before the `@` needs SMTPUTF8 and says so when the server
lacks it."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller

from domain.addresses import ascii_domain, needs_smtputf8
from domain.public.mail import Outgoing
from scheduler.mailer import NoSmtpUtf8, SmtpSender
from tests.server_process import free_port


class Recipients:
    """An aiosmtpd handler keeping each message's envelope recipients."""

    def __init__(self) -> None:
        self.to: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        self.to.append(list(envelope.rcpt_tos))
        return "250 OK"


def start_server(*, smtputf8: bool) -> tuple[Controller, Recipients, int]:
    handler, port = Recipients(), free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, enable_SMTPUTF8=smtputf8)
    controller.start()
    return controller, handler, port


def message(to: str) -> Outgoing:
    return Outgoing(mail_id="mail_1", to=to, subject="Called to Court 1", body="Court 1, now.")


@pytest.fixture
def trickling_port() -> Iterator[int]:
    """A server that greets with a multi-line 220 answer one line every 0.2 s and never ends it."""
    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def serve() -> None:
        connection, _ = listener.accept()
        with connection:
            while not stop.is_set():
                try:
                    connection.sendall(b"220-still thinking\r\n")
                except OSError:
                    return
                time.sleep(0.2)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    listener.close()


def test_a_trickling_server_fails_the_attempt_at_the_deadline(trickling_port: int) -> None:
    sender = SmtpSender(f"smtp://127.0.0.1:{trickling_port}", "desk@club.example", timeout=1.0, deadline=1.5)
    began = time.monotonic()
    with pytest.raises(TimeoutError, match="longer than 2 s for one message"):
        sender(message("ann@club.example"))
    assert time.monotonic() - began < 10  # each read came within the timeout: only the deadline ended it


def test_a_domain_with_non_ascii_letters_is_sent_in_idna_form() -> None:
    controller, handler, port = start_server(smtputf8=False)
    try:
        SmtpSender(f"smtp://127.0.0.1:{port}", "desk@club.example", timeout=5.0)(message("ann@bü.example"))
    finally:
        controller.stop()
    assert handler.to == [["ann@xn--b-eha.example"]]
    assert ascii_domain("ann@club.example") == "ann@club.example"
    assert not needs_smtputf8("ann@bü.example") and needs_smtputf8("jörg@club.example")


def test_a_non_ascii_name_before_the_at_needs_smtputf8() -> None:
    controller, handler, port = start_server(smtputf8=False)
    try:
        with pytest.raises(NoSmtpUtf8, match="no SMTPUTF8"):
            SmtpSender(f"smtp://127.0.0.1:{port}", "desk@club.example", timeout=5.0)(message("jörg@club.example"))
    finally:
        controller.stop()
    assert handler.to == []


def test_a_non_ascii_name_before_the_at_is_sent_where_the_server_offers_smtputf8() -> None:
    controller, handler, port = start_server(smtputf8=True)
    try:
        SmtpSender(f"smtp://127.0.0.1:{port}", "desk@club.example", timeout=5.0)(message("jörg@club.example"))
    finally:
        controller.stop()
    assert handler.to == [["jörg@club.example"]]
