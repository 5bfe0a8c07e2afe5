"""The webhook dispatcher that `serve` runs beside the API: APScheduler jobs over the domain's delivery records.

A pass claims due deliveries in one short transaction (at most one in flight per connection, the least
recently served connections first, at most as many as there are idle workers), then hands them to a bounded
pool of worker threads that attempt them OUTSIDE any transaction, so a slow or dead receiver holds one worker
and never the store. Passes run on `wake()` (a new event, a finished attempt), when the earliest scheduled retry
falls due, and on a slow poll as a safety net.

The records are the truth: at start, deliveries a crash left `delivering` are due again (same eventID, at least
once). On shutdown, attempts under way get a short grace period; any still hanging stay `delivering` and are
attempted again after the next start, so a hanging receiver never holds up a clean stop.
"""

from __future__ import annotations

import logging
import queue
import random as random_module
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

from apscheduler.schedulers.background import BackgroundScheduler

from domain import webhooks
from domain.clock import Clock
from domain.match import operations
from domain.match.matches import Rules
from domain.public import mail, personal
from domain.settings import Settings
from scheduler.attempts import AttemptRunner
from scheduler.sender import http_send, resolve_host
from storage.backend import AnyStore, retrying
from storage.repository import unit_of_work

log = logging.getLogger("courtside.webhooks")
logging.getLogger("apscheduler").setLevel(logging.WARNING)

RECOVERY_SECONDS = 5.0  # several processes: how often claims of a stopped process are looked for
THIS_PROCESS = "this-process"  # who claims mail on a store one process owns (TinyDB: no claim owner)
MAIL_SECONDS = 2.0  # how often due mail is looked for (a call-up should arrive while it matters)
REPORT_SECONDS = 15.0  # how often waiting reports are looked at (a report's wait is given in minutes)
SHUTDOWN_GRACE = 5.0  # seconds attempts under way may take to finish on shutdown


class Dispatcher:
    """Attempts due deliveries; `wake()` asks for an immediate pass (a new event was recorded)."""

    def __init__(
        self, store: AnyStore, settings: Settings, clock: Clock, *, sender: webhooks.Sender = http_send,
        resolve: webhooks.Resolver = resolve_host, random: Callable[[], float] = random_module.random,
        runner: AttemptRunner | None = None, rules: Rules | None = None, mailer: mail.Sender | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock
        self.runner = runner or AttemptRunner(store, settings, clock, sender=sender, resolve=resolve, random=random)
        self.workers = max(1, settings.webhook_workers)
        self.rules = rules  # the scoring rules the players' reports are recorded under (§21); None: no such job
        self.mailer = mailer  # sends players' mail (§21); None: SMTP is not set up, no mail job
        self._scheduler = BackgroundScheduler(
            timezone=UTC, job_defaults={"coalesce": True, "misfire_grace_time": None, "max_instances": 4},
        )
        self._queue: queue.SimpleQueue[webhooks.Attempt | None] = queue.SimpleQueue()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Condition()
        self._in_flight: dict[str, str] = {}  # event_id -> connection_id, claimed and not yet recorded
        self._running: set[str] = set()  # event_ids a worker has started attempting
        self._served: dict[str, int] = {}  # connection_id -> claim counter when last served (fairness)
        self._claims = 0
        self._dirty = False
        self._pumping = False
        self._started = False
        self._stopping = False
        self.owner: str | None = getattr(store, "claim_owner", None)  # several processes: who claims
        self._next_recovery = 0.0

    # ------------------------------------------------------------------------------------------ lifecycle
    def start(self) -> None:
        """Make interrupted deliveries due again, start the workers and jobs, and run a first pass."""
        recovered = self.recover()
        if recovered:
            log.info("%d interrupted webhook deliveries are due again", recovered)
        self._threads = [threading.Thread(target=self._worker, name=f"webhook-{n}", daemon=True)
                         for n in range(self.workers)]
        for thread in self._threads:
            thread.start()
        self._scheduler.add_job(self._tick, "interval", seconds=max(self.settings.webhook_poll_seconds, 0.05),
                                id="poll")
        self._scheduler.add_job(self.forget_expired_operations, "interval", hours=1, id="operations",
                                next_run_time=datetime.now(UTC))
        if self.rules is not None:
            self._scheduler.add_job(self.confirm_due_reports, "interval", seconds=REPORT_SECONDS, id="reports")
        if self.mailer is not None:
            self._scheduler.add_job(self.send_due_mail, "interval", seconds=MAIL_SECONDS, id="mail")
        self._scheduler.start()
        self._started = True
        self.wake()

    def forget_expired_operations(self) -> int:
        """The hourly job that keeps the scoring operations' answers to their 24 hours (§17)."""
        def work() -> int:
            with unit_of_work(self.store) as uow:
                return operations.forget_expired(uow, now=self.clock.now())

        return retrying(work)

    def confirm_due_reports(self) -> int:
        """The job that confirms players' reports left waiting longer than their broadcast allows (§21); how many.
        Recorded as the system's."""
        rules = self.rules
        if rules is None:
            return 0

        def work() -> int:
            with unit_of_work(self.store) as uow:
                return personal.confirm_due_reports(uow, now=self.clock.now(), rules=rules)

        return retrying(work)

    def send_due_mail(self) -> int:
        """The job that sends players' due mail (§21), each attempt outside any transaction, its outcome recorded
        after; how many were sent."""
        mailer = self.mailer
        if mailer is None:
            return 0

        def due() -> list[mail.Outgoing]:
            with unit_of_work(self.store) as uow:
                return mail.claim_due(uow, now=self.clock.now(), owner=self.owner or THIS_PROCESS)

        sent = 0
        for outgoing in retrying(due):
            try:
                mailer(outgoing)
                error = None
            except Exception as exc:  # noqa: BLE001 - any failure of the mail server is retried later
                error = f"{type(exc).__name__}: {exc}"
                log.warning("mail %s not sent: %s", outgoing.mail_id, error)

            def record(outgoing: mail.Outgoing = outgoing, error: str | None = error) -> None:
                with unit_of_work(self.store) as uow:
                    mail.record_attempt(uow, outgoing, error=error, now=self.clock.now())

            retrying(record)
            sent += error is None
        return sent

    def recover(self, *, periodic: bool = False) -> int:
        """Make claims whose process is gone due again. On a store shared by several processes (PostgreSQL), the
        claims of processes still running stay theirs; a periodic pass also leaves claims without an owner."""
        live_owners: Callable[[], set[str]] | None = getattr(self.store, "live_owners", None)
        live = live_owners() if live_owners is not None else set()
        if periodic and live_owners is None:
            return 0  # one process (TinyDB): nobody else's claims to recover

        def work() -> int:
            with unit_of_work(self.store) as uow:
                mail.recover_interrupted(uow, live_owners=live | ({THIS_PROCESS} if periodic else set()))
                return webhooks.recover_interrupted(uow, now=self.clock.now(), live_owners=live,
                                                    keep_unowned=periodic)

        return retrying(work)

    def wake(self) -> None:
        """Run a dispatch pass now (on a scheduler thread, never on the caller's)."""
        with self._lock:
            self._dirty = True
            if self._pumping or self._stopping or not self._started:
                return
        self._scheduler.add_job(self._pump, id="wake", replace_existing=True)

    def shutdown(self, grace: float = SHUTDOWN_GRACE) -> None:
        """Stop the jobs; give attempts under way `grace` seconds; claims never started become pending again."""
        with self._lock:
            self._stopping = True
        if not self._started:
            return
        self._scheduler.shutdown(wait=True)
        for _ in self._threads:
            self._queue.put(None)
        deadline = time.monotonic() + grace
        with self._lock:
            self._lock.wait_for(lambda: not self._running, timeout=max(deadline - time.monotonic(), 0))
            unstarted = [event_id for event_id in self._in_flight if event_id not in self._running]
            hanging = len(self._running)
        if unstarted:
            with unit_of_work(self.store) as uow:
                for event_id in unstarted:
                    webhooks.release(uow, event_id=event_id, now=self.clock.now())
        if hanging:
            log.info("%d webhook attempts still under way stay claimed; they are retried after restart", hanging)

    # ------------------------------------------------------------------------------------------ passes
    def _tick(self) -> None:
        if self.owner is not None and time.monotonic() >= self._next_recovery:
            self._next_recovery = time.monotonic() + RECOVERY_SECONDS
            log.debug("recovery pass: looking for claims of stopped processes")
            try:
                if self.recover(periodic=True):
                    log.info("claims of a stopped process are due again")
            except Exception:
                log.exception("recovering the claims of stopped processes failed")
        with self._lock:
            self._dirty = True
        self._pump()

    def _pump(self) -> None:
        """Claim and hand out while someone asked for a pass; one pump at a time."""
        with self._lock:
            if self._pumping:
                return
            self._pumping = True
        try:
            while True:
                with self._lock:
                    if not self._dirty or self._stopping:
                        return
                    self._dirty = False
                    idle = self.workers - len(self._in_flight)
                    busy = set(self._in_flight.values())
                if idle > 0:
                    self._claim_and_queue(idle, busy)
        except Exception:
            log.exception("webhook dispatch pass failed")
        finally:
            with self._lock:
                self._pumping = False

    def _claim_and_queue(self, idle: int, busy: set[str]) -> None:
        def work() -> tuple[list[webhooks.Attempt], datetime | None]:
            with unit_of_work(self.store) as uow:
                return webhooks.claim_due(uow, now=self.clock.now(), limit=idle, busy_connections=busy,
                                          rank=lambda connection_id: self._served.get(connection_id, -1),
                                          owner=self.owner)

        claims, next_due = retrying(work)
        for claim in claims:
            with self._lock:
                self._claims += 1
                self._served[claim.connection_id] = self._claims
                self._in_flight[claim.event_id] = claim.connection_id
            self._queue.put(claim)
        if next_due is not None:
            self._scheduler.add_job(self._tick, "date", run_date=next_due, id="due", replace_existing=True)

    def _worker(self) -> None:
        while (claim := self._queue.get()) is not None:
            with self._lock:
                if self._stopping:
                    continue  # left in `_in_flight` unstarted: shutdown gives it back
                self._running.add(claim.event_id)
            try:
                self.runner.run(claim)
            except Exception:
                if self._stopping:  # the store closed under an attempt that outlived the grace period
                    log.info("webhook attempt %s finished after shutdown; it stays claimed", claim.event_id)
                else:
                    log.exception("recording the webhook attempt %s failed", claim.event_id)
            finally:
                with self._lock:
                    self._running.discard(claim.event_id)
                    self._in_flight.pop(claim.event_id, None)
                    self._lock.notify_all()
            self.wake()

    # ------------------------------------------------------------------------------------------ in-process use
    def run_due(self) -> int:
        """Attempt every due delivery on this thread, pass after pass, until none is due (tests, tools)."""
        attempted = 0
        while True:
            with unit_of_work(self.store) as uow:
                claims, _ = webhooks.claim_due(uow, now=self.clock.now(), limit=self.workers)
            if not claims:
                return attempted
            for claim in claims:
                self.runner.run(claim)
            attempted += len(claims)
