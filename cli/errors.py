"""What a `courtside` command reports when it fails."""

from __future__ import annotations


class CliError(Exception):
    """A failure to report in one line, exit status 1 (or 2 for usage)."""
