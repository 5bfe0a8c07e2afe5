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


class StoreUnitOfWork:
    """The repositories of one transaction (see `domain.ports.UnitOfWork`)."""

    def __init__(self, tx: Transaction) -> None:
        self.accounts = Repository(tx, "accounts", models.Account)
        self.apps = Repository(tx, "apps", models.App)
        self.connections = Repository(tx, "connections", models.Connection)
        self.credentials = Repository(tx, "credentials", models.Credential)
        self.codes = Repository(tx, "codes", models.AuthorizationCode)
        self.broadcasts = Repository(tx, "broadcasts", models.Broadcast)
        self.tables = Repository(tx, "tables", models.Table)
        self.rosters = Repository(tx, "rosters", models.Roster)
        self.player_lists = Repository(tx, "player_lists", models.PlayerList)
        self.teams = Repository(tx, "teams", models.Team)
        self.matches = Repository(tx, "matches", models.Match)
        self.webhook_configs = Repository(tx, "webhook_configs", models.WebhookConfig)
        self.deliveries = Repository(tx, "deliveries", models.Delivery)
        self.new_event_ids: list[str] = []


@contextmanager
def unit_of_work(store: Store) -> Iterator[StoreUnitOfWork]:
    """A unit of work: committed when the block ends normally, discarded if it raises."""
    with store.transaction() as tx:
        yield StoreUnitOfWork(tx)
