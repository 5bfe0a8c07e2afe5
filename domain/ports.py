"""What services need from storage: typed repositories in one unit of work (one atomic transaction)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from domain import models
from domain.draws.cache import DecodedDraws

if TYPE_CHECKING:
    from domain.access.audit_records import Actor, AuditEntry, AuditQuery

M = TypeVar("M")


class Repo(Protocol[M]):
    def get(self, key: str) -> M | None: ...

    def put(self, item: M) -> M: ...

    def put_all(self, items: list[M]) -> None:
        """Store many whole records in one write (each as `put` would; nothing read back)."""
        ...

    def delete(self, key: str) -> None: ...

    def find(self, **equals: Any) -> list[M]: ...


class MatchRepo(Repo[models.Match], Protocol):
    """Matches, with each table's queue: its pending matches by `queue_order`, then creation (`seq`).

    Adapters keep the queue ordered (an index), so these cost O(log n) in the queue's length plus what they return.
    """

    def queue(self, table_id: str, *, start: int = 0, stop: int | None = None) -> list[models.Match]:
        """The table's queue, or the slice `[start:stop]` of it, in order."""
        ...

    def queue_last(self, table_id: str) -> models.Match | None:
        """The match at the end of the table's queue (the highest `queue_order`)."""
        ...

    def queue_length(self, table_id: str) -> int: ...

    def queue_position(self, match_id: str) -> int | None:
        """1-based place of a pending match in its table's queue; None for a match that is not pending."""
        ...

    def completed(self, *, since: str | None = None, last: int | None = None, **group: Any) -> list[models.Match]:
        """Completed matches of one group, by `completed_on` (then creation): those completed at or after `since`,
        or the `last` ones, or all. A group is `table_id=`, `player_list_id=`, or `connection_id=` +
        `player_list_external_id=` + `player_list_id=None` (a partner's list reference). Indexed: the cost is what
        is returned, not the group's (nor the account's) history."""
        ...


class TableRepo(Repo[models.Table], Protocol):
    """Tables, with each account's tables in creation order (an index)."""

    def account_page(self, account_id: str, *, after_seq: int | None, limit: int) -> list[models.Table]:
        """Up to `limit` of the account's tables created after `after_seq` (None: from the first), in order."""
        ...


class AuditLog(Protocol):
    """The accounts' audit chains (`domain.access.audit`): entries are only ever appended, never changed."""

    def head(self, account_id: str) -> AuditEntry | None:
        """The account's last entry (the highest `seq`), None before the first."""
        ...

    def append(self, entry: AuditEntry) -> bool:
        """Add the entry after `head`; a concurrent writer that took the same `seq` makes one of them lose the
        race (the whole unit of work runs again). False when nothing was added because the head given was an
        adapter's hint that proved out of date: build the entry again on `head()`, which now reads the truth."""
        ...

    def append_all(self, entries: list[AuditEntry]) -> None:
        """Add entries that follow one another, the first following the head this unit of work appended last for
        their account (an `append` went before, so no hint is involved), in one write, and the kept head once."""
        ...

    def kept_head(self, account_id: str) -> tuple[int, str] | None:
        """The head kept apart from the entries (`seq`, `hash` of the last entry appended), written with every
        append; None before the first entry."""
        ...

    def newest(
        self, account_id: str, *, before_seq: int | None, limit: int | None, query: AuditQuery,
    ) -> list[AuditEntry]:
        """Up to `limit` (None: all) entries matching `query` with `seq < before_seq` (None: any), newest first."""
        ...

    def oldest(self, account_id: str, *, after_seq: int, limit: int) -> list[AuditEntry]:
        """Up to `limit` entries with `seq > after_seq`, in the order storage holds them (by `seq`)."""
        ...

    def forget(self) -> None:
        """Drop what this unit of work remembers of the heads (a savepoint rolled its entries back)."""
        ...


class UnitOfWork(Protocol):
    """Everything one service call reads and writes; committed whole or not at all."""

    @property
    def accounts(self) -> Repo[models.Account]: ...

    @property
    def apps(self) -> Repo[models.App]: ...

    @property
    def connections(self) -> Repo[models.Connection]: ...

    @property
    def credentials(self) -> Repo[models.Credential]: ...

    @property
    def codes(self) -> Repo[models.AuthorizationCode]: ...

    @property
    def broadcasts(self) -> Repo[models.Broadcast]: ...

    @property
    def tables(self) -> TableRepo: ...

    @property
    def rosters(self) -> Repo[models.Roster]: ...

    @property
    def player_lists(self) -> Repo[models.PlayerList]: ...

    @property
    def teams(self) -> Repo[models.Team]: ...

    @property
    def matches(self) -> MatchRepo: ...

    @property
    def outputs(self) -> Repo[models.Output]: ...

    @property
    def links(self) -> Repo[models.Link]: ...

    @property
    def operations(self) -> Repo[models.Operation]: ...

    @property
    def webhook_configs(self) -> Repo[models.WebhookConfig]: ...

    @property
    def deliveries(self) -> Repo[models.Delivery]: ...

    @property
    def draws(self) -> Repo[models.DrawRecord]: ...

    @property
    def draw_parts(self) -> Repo[models.DrawPart]: ...

    @property
    def player_reports(self) -> Repo[models.PlayerReport]: ...

    @property
    def mail(self) -> Repo[models.MailMessage]: ...

    @property
    def new_event_ids(self) -> list[str]: ...

    @property
    def audit(self) -> AuditLog: ...

    @property
    def actor(self) -> Actor:
        """Who makes this unit of work's changes (named by the API layer or the job that opened it)."""
        ...

    @property
    def audit_enabled(self) -> bool:
        """Whether changes are recorded in the audit log (always, except in benchmarks measuring its cost)."""
        ...

    @property
    def draw_cache(self) -> DecodedDraws | None:
        """The decoded draws of the app that opened this unit of work (its `Services`), or None (jobs and tools:
        every draw is read from storage)."""
        ...

    def savepoint(self) -> AbstractContextManager[None]:
        """A nested scope of this unit of work: if its block raises, every write made in the block (events
        included) is undone and the exception goes on; the unit of work stays usable. One bulk item runs in one
        (`domain.bulk.each`), so an item fails alone. Adapters: TinyDB keeps a copy of the staged writes,
        SQL uses `SAVEPOINT` / `ROLLBACK TO SAVEPOINT`."""
        ...
