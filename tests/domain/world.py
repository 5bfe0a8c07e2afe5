"""A small event built through the real services on the in-memory store (`storage/memory.py`), for domain tests.

`World` holds a `MemoryStore` (it passes the store contract, `tests/storage/test_store_contract.py`), a fixed clock
and the default account; its helpers each run one service in its own unit of work, as a request would, so what a
test reads back is what was committed. No Flask, no data dir: a domain test costs milliseconds.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from domain.access.auth import bootstrap, create_developer_key, house_connection
from domain.clock import FixedClock
from domain.match import matches as svc
from domain.models import Broadcast, Match, PlayerList, Table
from domain.partner.broadcasts import BroadcastChange, Court, NewBroadcast, operator_create_broadcast, patch_broadcast
from domain.partner.player_lists import NewHouseList, SyncPlayerList, create_house_list, sync_list
from storage.memory import MemoryStore
from storage.repository import StoreUnitOfWork, unit_of_work

OPERATOR_KEY = "opk_test_world"
RULES = svc.Rules()
GAMES_WON_BY_A = [{"a": 11, "b": 5}, {"a": 11, "b": 7}, {"a": 11, "b": 3}]  # the server default: best of 5 to 11


class World:
    """One account on an in-memory store, with helpers that call the services the API calls."""

    def __init__(self) -> None:
        self.store = MemoryStore()
        self.clock = FixedClock()
        with self.uow() as uow:
            self.account_id = bootstrap(uow, operator_key=OPERATOR_KEY, now=self.now).id
            self.house_id = house_connection(uow, account_id=self.account_id, now=self.now).id

    @property
    def now(self) -> Any:
        return self.clock.now()

    @contextmanager
    def uow(self) -> Iterator[StoreUnitOfWork]:
        """One unit of work, committed when the block ends normally."""
        with unit_of_work(self.store) as uow:
            yield uow

    # ------------------------------------------------------------------------------------------- set-up
    def partner(self, name: str = "Partner") -> str:
        """A developer key's connection (a partner), by its id."""
        with self.uow() as uow:
            _, connection = create_developer_key(uow, account_id=self.account_id, name=name, scopes=None,
                                                 now=self.now, ttl_seconds=3600)
        return connection.id

    def house_list(self, name: str = "Club") -> PlayerList:
        with self.uow() as uow:
            return create_house_list(uow, account_id=self.account_id, new=NewHouseList(name=name), now=self.now)

    def partner_list(self, connection_id: str, external_id: str = "entrants",
                     players: list[dict[str, Any]] | None = None) -> PlayerList:
        with self.uow() as uow:
            sync = SyncPlayerList(external_id=external_id, name="Entrants", players=players or [])
            return sync_list(uow, account_id=self.account_id, connection_id=connection_id, sync=sync,
                             now=self.now)

    def broadcast(self, *labels: str, manager: str | None = None, **fields: Any) -> tuple[Broadcast, list[Table]]:
        """A broadcast with these courts (default one, "Court 1"), managed by `manager` (default the house)."""
        courts = [Court(label=label) for label in labels or ("Court 1",)]
        with self.uow() as uow:
            made = operator_create_broadcast(
                uow, account_id=self.account_id, now=self.now,
                new=NewBroadcast(name=fields.pop("name", "Club day"), tables=courts, manager_connection_id=manager,
                                 **fields))
            tables = [uow.tables.get(tid) for tid in made.table_ids]
        return made, [t for t in tables if t is not None]

    def patch(self, broadcast: Broadcast, **change: Any) -> Broadcast:
        """The operator's patch of a broadcast (`BroadcastChange` fields)."""
        with self.uow() as uow:
            return patch_broadcast(uow, account_id=self.account_id, broadcast_id=broadcast.id,
                                   change=BroadcastChange(**change), now=self.now, server=RULES.scoring)

    def court(self, *labels: str) -> Table:
        """The first court of a new house broadcast (a house list named on it for the house's matches)."""
        return self.broadcast(*labels)[1][0]

    def sync(self, table: Table, external_id: str, *, a: str | None = "Ann Lee", b: str | None = "Bo Chen",
             connection: str | None = None, list_external_id: str | None = None, **fields: Any) -> Match:
        """A pending match at the end of `table`'s queue, its sides typed names (the house's by default)."""
        connection = connection or self.house_id
        if list_external_id is None:
            list_external_id = self._list_of(connection)
        participants = {side: {"manualName": name} for side, name in (("playerA", a), ("playerB", b)) if name}
        participants |= fields.pop("participants", {})
        with self.uow() as uow:
            return svc.sync_match(uow, account_id=self.account_id, connection_id=connection, now=self.now,
                                  rules=RULES, sync=svc.MatchSync(external_id=external_id, table_id=table.id,
                                                                  player_list_external_id=list_external_id,
                                                                  participants=participants, **fields))

    def _list_of(self, connection: str) -> str:
        with self.uow() as uow:
            found = uow.player_lists.find(connection_id=connection)
        if found and found[0].external_id:
            return found[0].external_id
        if connection == self.house_id:
            made = self.house_list()
            assert made.external_id is not None
            return made.external_id
        return self.partner_list(connection).external_id or ""

    # ------------------------------------------------------------------------------------------- play
    def start(self, match: Match, *, force: bool = False) -> Match:
        with self.uow() as uow:
            return svc.start_match(uow, account_id=self.account_id, match_id=match.id, now=self.now, rules=RULES,
                                   force=force)

    def score(self, match: Match, games: list[dict[str, int]], **more: Any) -> Match:
        with self.uow() as uow:
            return svc.score_match(uow, account_id=self.account_id, match_id=match.id, game_scores=games,
                                   now=self.now, rules=RULES, **more)

    def complete(self, match: Match, games: list[dict[str, int]] | None = None) -> Match:
        with self.uow() as uow:
            return svc.complete_match(uow, account_id=self.account_id, match_id=match.id,
                                      game_scores=GAMES_WON_BY_A if games is None else games, now=self.now,
                                      rules=RULES)

    def played(self, table: Table, external_id: str, **fields: Any) -> Match:
        """A match synced, started and completed (side A wins 11-5 11-7 11-3)."""
        return self.complete(self.start(self.sync(table, external_id, **fields)))

    def get(self, match: Match) -> Match:
        with self.uow() as uow:
            found = uow.matches.get(match.id)
        assert found is not None
        return found

    def audit_actions(self) -> list[str]:
        """The account's audit chain, oldest first, as its actions."""
        with self.uow() as uow:
            return [e.action for e in uow.audit.oldest(self.account_id, after_seq=0, limit=10_000)]

    def events(self) -> list[tuple[str, str]]:
        """The recorded webhook deliveries as (event type, match id or ""), oldest first."""
        with self.uow() as uow:
            bodies = [(d.event_type, json.loads(d.body)) for d in uow.deliveries.find()]
        return [(str(kind), str((body.get("data") or {}).get("match", {}).get("id", ""))) for kind, body in bodies]
