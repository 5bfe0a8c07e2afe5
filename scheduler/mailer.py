"""Sending players' mail (contract §21) with the standard library's `smtplib`, outside any transaction.

`COURTSIDE_SMTP_URL` is `smtp://host:port` (plain; STARTTLS when the server offers it) or
`smtps://user:pass@host:port` (TLS from the start, then login).
"""

from __future__ import annotations

import smtplib
import socket
import threading
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from domain.addresses import ascii_domain, needs_smtputf8
from domain.public.mail import Outgoing

TIMEOUT = 20.0
#: The most one message may take from connect to the end of its data, however slowly the server trickles its
#: answers (each read within TIMEOUT would otherwise keep a message pending for ever): then the attempt fails and
#: the message is retried on the schedule.
DEADLINE = 120.0


class NoSmtpUtf8(Exception):
    """The address has non-ASCII characters before its `@` and the mail server does not offer SMTPUTF8."""


class SmtpSender:
    """Sends one message per call; raises on any failure (refused, unreachable, timed out)."""

    def __init__(self, url: str, sender: str, timeout: float, deadline: float = DEADLINE) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("COURTSIDE_SMTP_URL is smtp://host:port or smtps://user:pass@host:port.")
        self.secure = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.secure else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.sender, self.timeout, self.deadline = sender, timeout, deadline

    def __call__(self, outgoing: Outgoing) -> None:
        to = ascii_domain(outgoing.to)
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, to, outgoing.subject
        message.set_content(outgoing.body)
        smtp_class = smtplib.SMTP_SSL if self.secure else smtplib.SMTP
        with smtp_class(timeout=self.timeout) as smtp:  # no host: connect below, under the deadline (the greeting too)
            expired = threading.Event()
            watchdog = threading.Timer(self.deadline, _cut, args=(smtp, expired))
            watchdog.daemon = True
            watchdog.start()
            try:
                smtp.connect(self.host, self.port)
                self._send(smtp, message, to)
            except OSError as error:
                if expired.is_set():
                    raise TimeoutError(f"the mail server took longer than {self.deadline:.0f} s for one message") \
                        from error
                raise
            finally:
                watchdog.cancel()

    def _send(self, smtp: smtplib.SMTP, message: EmailMessage, to: str) -> None:
        if not self.secure:
            smtp.ehlo()
            if smtp.has_extn("starttls"):
                smtp.starttls()
                smtp.ehlo()
        if self.user:
            smtp.login(self.user, self.password or "")
        if needs_smtputf8(to) and not smtp.has_extn("smtputf8"):
            raise NoSmtpUtf8("the mail server does not take addresses with non-ASCII characters before the @ "
                             "(no SMTPUTF8)")
        smtp.send_message(message)


def _cut(smtp: smtplib.SMTP, expired: threading.Event) -> None:
    """The deadline passed: shut the connection so the read it waits in fails now (from the watchdog's thread)."""
    expired.set()
    sock = smtp.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass  # already closed: the send ended as the deadline passed
