"""Mail addresses as a mail server sees them: one rule for the sender (`scheduler/mailer.py`) and the desk's note at
entry (the console's Players page), so both say the same about an address with non-ASCII letters."""

from __future__ import annotations


def ascii_domain(address: str) -> str:
    """The address with its domain in IDNA form (`jörg@bü.de` → `jörg@xn--b-eha.de`): any server takes that."""
    local, at, domain = address.rpartition("@")
    if not at or domain.isascii():
        return address
    try:
        return f"{local}@{domain.encode('idna').decode('ascii')}"
    except UnicodeError:  # not a name IDNA can write: the server refuses it as it is, and the attempt says so
        return address


def needs_smtputf8(address: str) -> bool:
    """True when the part before the `@` has non-ASCII letters: only a mail server that offers SMTPUTF8 takes it."""
    local, _, _ = address.rpartition("@")
    return not local.isascii()
