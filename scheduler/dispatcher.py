"""The webhook dispatcher that `serve` runs beside the API (APScheduler jobs over domain services)."""

from __future__ import annotations

from domain.clock import Clock
from domain.settings import Settings
from storage.engine import Store


class Dispatcher:
    """Attempts due deliveries; `wake()` asks for an immediate pass (a new event was recorded)."""

    def __init__(self, store: Store, settings: Settings, clock: Clock) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock

    def start(self) -> None:
        """Start the background jobs."""

    def wake(self) -> None:
        """Run a dispatch pass now."""

    def shutdown(self) -> None:
        """Stop the jobs and wait for attempts under way."""
