"""Sending players' mail (contract §21) with the standard library's `smtplib`, outside any transaction.

`COURTSIDE_SMTP_URL` is `smtp://host:port` (plain; STARTTLS when the server offers it) or
`smtps://user:pass@host:port` (TLS from the start, then login).
"""

from __future__ import annotations

import smtplib
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

from domain.public.mail import Outgoing

TIMEOUT = 20.0


class SmtpSender:
    """Sends one message per call; raises on any failure (refused, unreachable, timed out)."""

    def __init__(self, url: str, sender: str, timeout: float) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
            raise ValueError("COURTSIDE_SMTP_URL is smtp://host:port or smtps://user:pass@host:port.")
        self.secure = parts.scheme == "smtps"
        self.host = parts.hostname
        self.port = parts.port or (465 if self.secure else 25)
        self.user = unquote(parts.username) if parts.username else None
        self.password = unquote(parts.password) if parts.password else None
        self.sender, self.timeout = sender, timeout

    def __call__(self, outgoing: Outgoing) -> None:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = self.sender, outgoing.to, outgoing.subject
        message.set_content(outgoing.body)
        smtp_class = smtplib.SMTP_SSL if self.secure else smtplib.SMTP
        with smtp_class(self.host, self.port, timeout=self.timeout) as smtp:
            if not self.secure:
                smtp.ehlo()
                if smtp.has_extn("starttls"):
                    smtp.starttls()
            if self.user:
                smtp.login(self.user, self.password or "")
            smtp.send_message(message)
