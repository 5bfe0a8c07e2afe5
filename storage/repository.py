"""Typed repositories over store transactions: dataclass in, document out, and back."""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from functools import cached_property
from typing import Any, Generic, TypeVar

from domain import models
from domain.access.audit import SYSTEM, Actor
from domain.draws.cache import DecodedDraws
from domain.models import MatchStatus
from domain.ports import AuditLog
from storage.audit_log import PgAuditLog, TinyAuditLog
from storage.backend import AnyStore, AnyTransaction
from storage.engine import Transaction
from storage.port import Ordering

M = TypeVar("M")
R = TypeVar("R", bound="Repository[Any]")


_FIELDS: dict[type, dict[str, None]] = {}


def _field_names(model: type) -> dict[str, None]:
    """The model's field names in declaration order (a dict: ordered, and fast to test membership), computed
    once per model (a unit of work is made on every request)."""
    names = _FIELDS.get(model)
    if names is None:
        names = _FIELDS[model] = dict.fromkeys(f.name for f in dataclasses.fields(model))
    return names


Vocabularies = dict[str, tuple[dict[str, StrEnum], bool]]
_VOCABULARIES: dict[type, Vocabularies] = {}


def _vocabularies(model: type) -> Vocabularies:
    """The model's fields typed with a vocabulary of `domain.models` (a StrEnum, optional, or a list of one):
    field name -> (the enum's members by value, whether the field is a list). A document holds the plain strings;
    a record read back holds the members, as the record that was stored did."""
    found = _VOCABULARIES.get(model)
    if found is None:
        found = _VOCABULARIES[model] = {}
        for name, hint in typing.get_type_hints(model).items():
            many = typing.get_origin(hint) is list
            for part in typing.get_args(hint) if typing.get_args(hint) else (hint,):
                if isinstance(part, type) and issubclass(part, StrEnum):
                    found[name] = ({member.value: member for member in part}, many)
                elif typing.get_origin(part) is list and typing.get_args(part):
                    inner = typing.get_args(part)[0]
                    if isinstance(inner, type) and issubclass(inner, StrEnum):
                        found[name] = ({member.value: member for member in inner}, True)
    return found


class Repository(Generic[M]):
    """One document table holding one model, keyed by the model's `id`."""

    def __init__(self, tx: AnyTransaction, table: str, model: type[M]) -> None:
        self._tx = tx
        self._table = table
        self._model = model
        self._fields = _field_names(model)
        self._vocabularies = _vocabularies(model)

    def _load(self, doc: dict[str, Any]) -> M:
        values = {k: v for k, v in doc.items() if k in self._fields}
        for name, (members, many) in self._vocabularies.items():  # a dict lookup: Enum(value) costs 7-10 times more
            value = values.get(name)
            if value is not None:
                values[name] = [members.get(item, item) for item in value] if many else members.get(value, value)
        return self._model(**values)

    def get(self, key: str) -> M | None:
        doc = self._tx.get(self._table, key)
        return None if doc is None else self._load(doc)

    def put(self, item: M) -> M:
        """Store the whole record; returns it with its creation `seq` filled in."""
        # A shallow dict of the fields: the transaction copies it deeply through JSON anyway (`dataclasses.asdict`
        # would copy every nested value a second time).
        fields = {name: getattr(item, name) for name in self._fields}
        doc = self._tx.put(self._table, item.id, fields)  # type: ignore[attr-defined]
        return self._load(doc)

    def put_all(self, items: list[M]) -> None:
        """Store many whole records in one write (nothing read back: `put` them one by one to get their `seq`)."""
        docs = {item.id: {name: getattr(item, name) for name in self._fields} for item in items}  # type: ignore[attr-defined]
        self._tx.put_all(self._table, docs)

    def delete(self, key: str) -> None:
        self._tx.delete(self._table, key)

    def find(self, **equals: Any) -> list[M]:
        return [self._load(doc) for doc in self._tx.find(self._table, **equals)]


QUEUE = "queue"
QUEUE_ORDER = Ordering(group=("table_id",), sort=("queue_order", "seq"), where={"status": MatchStatus.PENDING})
# Completed matches by `completed_on`, grouped as `MatchRepo.completed` is asked: by table, by player list (its
# `id`), by a partner's list reference (connection + externalID, no `id`). PostgreSQL: the `matches_*completed`
# indexes (storage/pg_schema.py V6).
_DONE = {"status": MatchStatus.COMPLETED}
COMPLETED: dict[tuple[str, ...], tuple[str, Ordering]] = {
    group: (f"completed:{'+'.join(group)}", Ordering(group=group, sort=("completed_on", "seq"), where=_DONE))
    for group in (("table_id",), ("player_list_id",), ("connection_id", "player_list_external_id", "player_list_id"))
}
# An account's tables in creation order (the court board's pages). PostgreSQL: `tables_account_seq`.
TABLES_BY_ACCOUNT = Ordering(group=("account_id",), sort=("seq",), where={})


class MatchRepository(Repository[models.Match]):
    """Matches, with each table's queue (pending matches by `queue_order`, then creation) as an ordered index."""

    def queue(self, table_id: str, *, start: int = 0, stop: int | None = None) -> list[models.Match]:
        docs = self._tx.ordered(self._table, QUEUE, QUEUE_ORDER, (table_id,), start=start, stop=stop)
        return [self._load(doc) for doc in docs]

    def queue_last(self, table_id: str) -> models.Match | None:
        docs = self._tx.ordered(self._table, QUEUE, QUEUE_ORDER, (table_id,), last=True)
        return self._load(docs[0]) if docs else None

    def queue_length(self, table_id: str) -> int:
        return self._tx.ordered_count(self._table, QUEUE, QUEUE_ORDER, (table_id,))

    def queue_position(self, match_id: str) -> int | None:
        rank = self._tx.rank(self._table, QUEUE, QUEUE_ORDER, match_id)
        return None if rank is None else rank + 1

    def completed(self, *, since: str | None = None, last: int | None = None, **group: Any) -> list[models.Match]:
        name, spec = _completed_index(group)
        values = tuple(group[field] for field in spec.group_fields)
        if last is not None:
            count = self._tx.ordered_count(self._table, name, spec, values)
            docs = self._tx.ordered(self._table, name, spec, values, start=max(count - last, 0))
        else:
            docs = self._tx.ordered(self._table, name, spec, values, low=None if since is None else (since,))
        return [self._load(doc) for doc in docs]


def _completed_index(group: dict[str, Any]) -> tuple[str, Ordering]:
    fields = ("connection_id", "player_list_external_id", "player_list_id", "table_id")
    found = None if set(group) - set(fields) else COMPLETED.get(tuple(sorted(group, key=fields.index)))
    if found is None:
        raise ValueError(f"No index of completed matches by {sorted(group)}.")
    return found


class TableRepository(Repository[models.Table]):
    """Tables, with each account's tables in creation order as an ordered index (the court board's pages)."""

    def account_page(self, account_id: str, *, after_seq: int | None, limit: int) -> list[models.Table]:
        low = None if after_seq is None else (after_seq + 1,)
        docs = self._tx.ordered(self._table, "by_account", TABLES_BY_ACCOUNT, (account_id,), stop=limit, low=low)
        return [self._load(doc) for doc in docs]


class _Repo(Generic[R]):
    """A unit-of-work attribute that makes its repository on first use (most requests touch one or two)."""

    def __init__(self, table: str, model: type, repository: type[R]) -> None:
        self.table, self.model, self.repository = table, model, repository

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, uow: StoreUnitOfWork, owner: type) -> R:
        repository = self.repository(uow._tx, self.table, self.model)
        uow.__dict__[self.name] = repository  # later reads find the instance attribute first
        return repository


class StoreUnitOfWork:
    """The repositories of one transaction (see `domain.ports.UnitOfWork`)."""

    accounts = _Repo("accounts", models.Account, Repository[models.Account])
    apps = _Repo("apps", models.App, Repository[models.App])
    connections = _Repo("connections", models.Connection, Repository[models.Connection])
    credentials = _Repo("credentials", models.Credential, Repository[models.Credential])
    codes = _Repo("codes", models.AuthorizationCode, Repository[models.AuthorizationCode])
    broadcasts = _Repo("broadcasts", models.Broadcast, Repository[models.Broadcast])
    tables = _Repo("tables", models.Table, TableRepository)
    rosters = _Repo("rosters", models.Roster, Repository[models.Roster])
    player_lists = _Repo("player_lists", models.PlayerList, Repository[models.PlayerList])
    teams = _Repo("teams", models.Team, Repository[models.Team])
    matches = _Repo("matches", models.Match, MatchRepository)
    outputs = _Repo("outputs", models.Output, Repository[models.Output])
    webhook_configs = _Repo("webhook_configs", models.WebhookConfig, Repository[models.WebhookConfig])
    deliveries = _Repo("deliveries", models.Delivery, Repository[models.Delivery])
    links = _Repo("links", models.Link, Repository[models.Link])
    operations = _Repo("operations", models.Operation, Repository[models.Operation])
    draws = _Repo("draws", models.DrawRecord, Repository[models.DrawRecord])
    draw_parts = _Repo("draw_parts", models.DrawPart, Repository[models.DrawPart])
    player_reports = _Repo("player_reports", models.PlayerReport, Repository[models.PlayerReport])
    mail = _Repo("mail", models.MailMessage, Repository[models.MailMessage])

    def __init__(self, tx: AnyTransaction, *, actor: Actor = SYSTEM, audit_enabled: bool = True,
                 draw_cache: DecodedDraws | None = None) -> None:
        self._tx = tx
        self.new_event_ids: list[str] = []
        self.actor = actor
        self.audit_enabled = audit_enabled
        self.draw_cache = draw_cache

    @cached_property
    def audit(self) -> AuditLog:
        """The accounts' audit chains, in this transaction."""
        return TinyAuditLog(self._tx) if isinstance(self._tx, Transaction) else PgAuditLog(self._tx)

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Writes of the block, and the events it recorded, are undone if it raises (see `domain.ports`)."""
        events = len(self.new_event_ids)
        with self._tx.savepoint():
            try:
                yield
            except BaseException:
                del self.new_event_ids[events:]
                if "audit" in self.__dict__:  # its entries are undone too: read the heads again
                    self.audit.forget()
                raise


@contextmanager
def unit_of_work(store: AnyStore, *, actor: Actor = SYSTEM, audit_enabled: bool = True,
                 draw_cache: DecodedDraws | None = None) -> Iterator[StoreUnitOfWork]:
    """A unit of work: committed when the block ends normally, discarded if it raises. `actor` is who makes its
    changes (the audit log's entries name it; the API layer passes the caller, jobs the system); `draw_cache` the
    app's decoded draws (`Services.draws`)."""
    with store.transaction() as tx:
        yield StoreUnitOfWork(tx, actor=actor, audit_enabled=audit_enabled, draw_cache=draw_cache)
