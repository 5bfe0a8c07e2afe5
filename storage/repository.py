"""Typed repositories over store transactions: dataclass in, document out, and back."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from domain import models
from storage.engine import Store, Transaction

M = TypeVar("M")


_FIELDS: dict[type, frozenset[str]] = {}


def _field_names(model: type) -> frozenset[str]:
    """The model's field names, computed once per model (a unit of work is made on every request)."""
    names = _FIELDS.get(model)
    if names is None:
        names = _FIELDS[model] = frozenset(f.name for f in dataclasses.fields(model))
    return names


class Repository(Generic[M]):
    """One document table holding one model, keyed by the model's `id`."""

    def __init__(self, tx: Transaction, table: str, model: type[M]) -> None:
        self._tx = tx
        self._table = table
        self._model = model
        self._fields = _field_names(model)

    def _load(self, doc: dict[str, Any]) -> M:
        return self._model(**{k: v for k, v in doc.items() if k in self._fields})

    def get(self, key: str) -> M | None:
        doc = self._tx.get(self._table, key)
        return None if doc is None else self._load(doc)

    def put(self, item: M) -> M:
        """Store the whole record; returns it with its creation `seq` filled in."""
        doc = self._tx.put(self._table, item.id, dataclasses.asdict(item))  # type: ignore[attr-defined, call-overload]
        return self._load(doc)

    def delete(self, key: str) -> None:
        self._tx.delete(self._table, key)

    def find(self, **equals: Any) -> list[M]:
        return [self._load(doc) for doc in self._tx.find(self._table, **equals)]


class _Repo(Generic[M]):
    """A unit-of-work attribute that makes its repository on first use (most requests touch one or two)."""

    def __init__(self, table: str, model: type[M]) -> None:
        self.table, self.model = table, model

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, uow: StoreUnitOfWork, owner: type) -> Repository[M]:
        repository = Repository(uow._tx, self.table, self.model)
        uow.__dict__[self.name] = repository  # later reads find the instance attribute first
        return repository


class StoreUnitOfWork:
    """The repositories of one transaction (see `domain.ports.UnitOfWork`)."""

    accounts = _Repo("accounts", models.Account)
    apps = _Repo("apps", models.App)
    connections = _Repo("connections", models.Connection)
    credentials = _Repo("credentials", models.Credential)
    codes = _Repo("codes", models.AuthorizationCode)
    broadcasts = _Repo("broadcasts", models.Broadcast)
    tables = _Repo("tables", models.Table)
    rosters = _Repo("rosters", models.Roster)
    player_lists = _Repo("player_lists", models.PlayerList)
    teams = _Repo("teams", models.Team)
    matches = _Repo("matches", models.Match)
    outputs = _Repo("outputs", models.Output)
    webhook_configs = _Repo("webhook_configs", models.WebhookConfig)
    deliveries = _Repo("deliveries", models.Delivery)

    def __init__(self, tx: Transaction) -> None:
        self._tx = tx
        self.new_event_ids: list[str] = []

    @contextmanager
    def savepoint(self) -> Iterator[None]:
        """Writes of the block, and the events it recorded, are undone if it raises (see `domain.ports`)."""
        events = len(self.new_event_ids)
        with self._tx.savepoint():
            try:
                yield
            except BaseException:
                del self.new_event_ids[events:]
                raise


@contextmanager
def unit_of_work(store: Store) -> Iterator[StoreUnitOfWork]:
    """A unit of work: committed when the block ends normally, discarded if it raises."""
    with store.transaction() as tx:
        yield StoreUnitOfWork(tx)
