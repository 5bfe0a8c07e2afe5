"""Who may start (contract §9, §14): a match starts only when none of its players is busy on another court,
resting after a match, or unchecked while the event requires check-in, and its `notBefore` has passed.

`Availability` reads only what can matter to the people it is asked about, once, and then answers for many matches:
start, start-next, the court board's `blockedBy`, the people list and the pool. A person's keys say where they can
be met: a name key within its broadcast (the matches on its courts), a list key wherever that player list is used
(any broadcast of the account). For each such place it reads the matches active now and those completed within the
rest of the broadcast asked about, through indexed reads (`MatchRepo.completed`), so an operation costs what its
broadcast and its players' lists hold now, never the account's history nor its other broadcasts (issue 42).
A player is the same person by their list entry (list + externalID) or, within one broadcast, by their name under
the one name rule (§8a), whichever the two matches share. Names are compared within a broadcast only: two events
of one account (or two partners' events) may each have a "Player 1" who are different people.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from domain.clock import iso, parse_iso
from domain.models import POOL, BlockReason, Broadcast, Match, MatchResultType, MatchStatus, PlayerList
from domain.names import name_key
from domain.partner import queues
from domain.plan import live as plan_live
from domain.ports import UnitOfWork

Key = tuple[str, ...]  # a person's key: ("player", list ID, externalID) or ("name", broadcast ID, name key)


@dataclass(frozen=True)
class Block:
    """One reason a match waits, the players it concerns and, where it ends by itself, until when."""

    reason: BlockReason
    players: list[str]
    until: str | None = None
    table_ids: list[str] = field(default_factory=list)

    def view(self) -> dict[str, Any]:
        """`blockedBy` of a pending match: `{"reason", "players", "until"?}`."""
        return {"reason": self.reason, "players": self.players} | ({"until": self.until} if self.until else {})

    def details(self) -> dict[str, Any]:
        """The details of a refused start (`player_busy` also names the tables, as §9 says)."""
        if self.reason == BlockReason.PLAYER_BUSY:
            return {"players": self.players, "tableIDs": self.table_ids}
        return self.view()

    def message(self) -> str:
        who = ", ".join(self.players)
        return {
            BlockReason.PLAYER_BUSY: f"{who} {'is' if len(self.players) == 1 else 'are'} still playing on another "
                                     "table; start anyway with force.",
            BlockReason.PLAYER_RESTING: f"{who} must rest until {self.until}; start anyway with force.",
            BlockReason.NOT_CHECKED_IN: f"{who} {'has' if len(self.players) == 1 else 'have'} not checked in; "
                                        "start anyway with force.",
            BlockReason.NOT_BEFORE: f"This match is not to start before {self.until}; start anyway with force.",
        }[self.reason]


@dataclass(frozen=True)
class Person:
    """One participant of a match: their side, display name, and the keys that make them one person."""

    side: str
    name: str
    keys: frozenset[tuple[str, ...]]
    club: str | None = None


class Players:
    """The players of matches, by side, with their names read once per player list."""

    def __init__(self, uow: UnitOfWork) -> None:
        self._uow = uow
        self._lists: dict[tuple[str, str], tuple[str, Any]] = {}
        self._broadcast_ids: dict[str, str] = {}
        # list key -> the `MatchRepo.find`/`completed` groups of the matches whose players carry that list key
        self.list_groups: dict[str, list[dict[str, Any]]] = {}
        self._entries: dict[str, dict[Any, dict[str, Any]]] = {}  # list ID -> its players by externalID
        # match ID -> (what its people are made of, its people): a match is asked for several times a read (busy,
        # blocks, the board's busy players), its people made once while those parts are the same
        self._people: dict[str, tuple[tuple[Any, ...], list[Person]]] = {}

    def _list(self, match: Match) -> tuple[str, Any]:
        key = (match.connection_id, match.player_list_id or match.player_list_external_id or "")
        if key not in self._lists:
            found = queues.player_list_of(self._uow, match)
            list_id = found.id if found else "/".join(key)
            self._lists[key] = (list_id, found)
            if list_id not in self.list_groups:
                self.list_groups[list_id] = _list_groups(match, found)
        return self._lists[key]

    def broadcast_id(self, match: Match) -> str:
        """The match's broadcast: its table's, or for a draw's match waiting in the court pool (no table yet)
        its draw's, so that the pool's players are the same people as on the broadcast's courts ("" if none)."""
        where = match.table_id or f"draw:{match.draw_id or ''}"
        if where not in self._broadcast_ids:
            if match.table_id:
                table = self._uow.tables.get(match.table_id)
                self._broadcast_ids[where] = table.broadcast_id if table else ""
            else:
                draw = self._uow.draws.get(match.draw_id) if match.draw_id else None
                self._broadcast_ids[where] = draw.broadcast_id if draw else ""
        return self._broadcast_ids[where]

    def named(self, broadcast_id: str, name: str, *, club: str | None = None) -> Person:
        """A person known by name only (a draw's entry with no match yet), as `of` would make them."""
        return Person(side="a", name=name, keys=frozenset({("name", broadcast_id, name_key(name))}), club=club)

    def of(self, match: Match) -> list[Person]:
        """The match's people, by side (the same list for the same match while its players and place are)."""
        parts = (match.participants, match.table_id, match.draw_id, match.connection_id, match.player_list_id,
                 match.player_list_external_id)
        known = self._people.get(match.id)
        if known is not None and known[0] == parts:
            return known[1]
        people = self._made(match)
        kept = ({side: dict(ref) for side, ref in match.participants.items()}, *parts[1:])  # a copy: changed in place
        self._people[match.id] = (kept, people)
        return people

    def _made(self, match: Match) -> list[Person]:
        list_id, player_list = self._list(match)
        names = queues.side_names(match, player_list)
        if list_id not in self._entries:
            self._entries[list_id] = {p.get("externalID"): p for p in (player_list.players if player_list else [])}
        entries = self._entries[list_id]
        people = []
        for side, ref in match.participants.items():
            if not ref:
                continue
            keys: set[tuple[str, ...]] = set()
            if ref.get("externalID"):
                keys.add(("player", list_id, ref["externalID"]))
            name = names.get(side) or ref.get("manualName") or ""
            if name.strip() and name != ref.get("externalID"):  # a name, not an unnamed entry's externalID
                keys.add(("name", self.broadcast_id(match), name_key(name)))
            entry = entries.get(ref.get("externalID")) or {}
            if keys:
                people.append(Person(side=side, name=name or side, keys=frozenset(keys),
                                     club=entry.get("clubName") or entry.get("country")))
        return people


class Availability:
    """Who may play now, for matches of one account at one moment `now`."""

    def __init__(self, uow: UnitOfWork, *, account_id: str, now: datetime) -> None:
        self.uow = uow
        self.account_id = account_id
        self.now = now
        self.players = Players(uow)
        self._broadcasts: dict[str, Broadcast | None] = {}
        self._on_court: dict[Key, dict[str, str]] = {}  # key -> {match ID: table ID} of its active matches
        self._started: dict[str, dict[Key, datetime]] = {}  # broadcast -> key -> their first start
        self._finished: dict[Key, datetime] = {}  # key -> when their latest match read completed
        self._active_read: set[Key] = set()  # places (see `_place`) whose active matches are read
        self._rest_read: dict[Key, int] = {}  # place -> the longest rest (minutes) its completed matches are read for
        self._tables: dict[str, list[str]] = {}  # broadcast -> its table IDs

    @staticmethod
    def _place(key: Key) -> Key:
        """Where a person of this key can be met: their broadcast (a name key), or their player list (a list key)."""
        return ("broadcast", key[1]) if key[0] == "name" else ("list", key[1])

    def _tables_of(self, broadcast_id: str) -> list[str]:
        if broadcast_id not in self._tables:
            found = self.uow.tables.find(broadcast_id=broadcast_id) if broadcast_id else []
            self._tables[broadcast_id] = [table.id for table in found if table.account_id == self.account_id]
        return self._tables[broadcast_id]

    def _groups(self, place: Key) -> list[dict[str, Any]]:
        """The match groups (`MatchRepo.find`/`completed` arguments) a place's matches are in. Matches on a table
        that is gone have no broadcast (""): they are found among the account's, the one read that is not narrow,
        made only for them."""
        if place == ("broadcast", ""):
            return [{"account_id": self.account_id}]
        if place[0] == "broadcast":
            return [{"table_id": table_id} for table_id in self._tables_of(place[1])]
        return self.players.list_groups.get(place[1], [])

    def _pool_groups(self, place: Key) -> list[dict[str, Any]]:
        """A broadcast's draws' matches completed in the court pool (a result typed in for a match that never
        started on the server keeps no court, yet its players rest from when it was typed, issue 51): one indexed
        read per draw of the broadcast."""
        if place[0] != "broadcast" or not place[1]:
            return []
        return [{"draw_id": draw.id, "table_id": POOL}
                for draw in self.uow.draws.find(account_id=self.account_id, broadcast_id=place[1])]

    def _completed(self, group: dict[str, Any], since: str) -> list[Match]:
        if "account_id" in group or "draw_id" in group:
            return [m for m in self.uow.matches.find(**group, status=MatchStatus.COMPLETED)
                    if (m.completed_on or "") >= since]
        return self.uow.matches.completed(**group, since=since)

    def _read_active(self, person: Person) -> None:
        for place in {self._place(key) for key in person.keys} - self._active_read:
            self._active_read.add(place)
            for group in self._groups(place):
                for active in self.uow.matches.find(**group, status=MatchStatus.ACTIVE):
                    if active.account_id != self.account_id:
                        continue
                    for other in self.players.of(active):
                        for key in other.keys:
                            self._on_court.setdefault(key, {})[active.id] = active.table_id

    def _read_finished(self, person: Person, rest_minutes: int) -> None:
        for place in {self._place(key) for key in person.keys}:
            if self._rest_read.get(place, 0) >= rest_minutes:
                continue
            self._rest_read[place] = rest_minutes
            since = iso(self.now - timedelta(minutes=rest_minutes))
            for group in self._groups(place) + self._pool_groups(place):
                for done in self._completed(group, since):
                    if (done.account_id != self.account_id or not done.completed_on
                            or done.result_type == MatchResultType.WALKOVER):
                        continue
                    ended = parse_iso(done.completed_on)
                    for other in self.players.of(done):
                        for key in other.keys:
                            if key not in self._finished or self._finished[key] < ended:
                                self._finished[key] = ended

    def playing_on(self, person: Person) -> str | None:
        """The table the person plays on right now, if any."""
        self._read_active(person)
        found = [table_id for key in sorted(person.keys) for table_id in self._on_court.get(key, {}).values()]
        return found[0] if found else None

    def broadcast_of(self, match: Match) -> Broadcast | None:
        broadcast_id = self.players.broadcast_id(match)
        if broadcast_id not in self._broadcasts:
            self._broadcasts[broadcast_id] = self.uow.broadcasts.get(broadcast_id) if broadcast_id else None
        return self._broadcasts[broadcast_id]

    def busy(self, match: Match) -> list[tuple[str, str]]:
        """(side, table ID) for each of the match's players in an active match on another table."""
        found: list[tuple[str, str]] = []
        for person in self.players.of(match):
            self._read_active(person)
            tables = {table_id for key in person.keys for match_id, table_id in self._on_court.get(key, {}).items()
                      if match_id != match.id and table_id != match.table_id}
            found += [(person.side, table_id) for table_id in sorted(tables)]
        return found

    def resting_until(self, person: Person, broadcast: Broadcast | None) -> datetime | None:
        """When the person may play again, if they finished a match less than the broadcast's rest ago."""
        rest = broadcast.rest_minutes if broadcast else 0
        if not rest:
            return None
        self._read_finished(person, rest)
        ended = max((self._finished[k] for k in person.keys if k in self._finished), default=None)
        if not rest or ended is None:
            return None
        until = ended + timedelta(minutes=rest)
        return until if until > self.now else None

    def first_starts(self, broadcast: Broadcast) -> dict[tuple[str, ...], datetime]:
        """When each person (by key) first started a match on one of the broadcast's courts (read once)."""
        if broadcast.id not in self._started:
            found: dict[tuple[str, ...], datetime] = {}
            for table_id in broadcast.table_ids:
                for status in (MatchStatus.ACTIVE, MatchStatus.COMPLETED):
                    for match in self.uow.matches.find(table_id=table_id, status=status):
                        if not match.started_on:
                            continue
                        started = parse_iso(match.started_on)
                        for person in self.players.of(match):
                            for key in person.keys:
                                if key not in found or started < found[key]:
                                    found[key] = started
            self._started[broadcast.id] = found
        return self._started[broadcast.id]

    def checked_in_on(self, person: Person, broadcast: Broadcast | None) -> str | None:
        """When the person checked in: at the desk, or by starting a match of the broadcast (someone who has
        played is at the venue), whichever came first; None if neither (decisions: check-in)."""
        if broadcast is None:
            return None
        desk = broadcast.check_ins.get(name_key(person.name))
        starts = self.first_starts(broadcast)
        played = min((starts[k] for k in person.keys if k in starts), default=None)
        moments = [parse_iso(desk)] if desk else []
        moments += [played] if played is not None else []
        if not moments:
            return None
        earliest = min(moments)
        return desk if desk and parse_iso(desk) == earliest else iso(earliest)

    def checked_in(self, person: Person, broadcast: Broadcast | None) -> bool:
        """Whether the person checked in; one checked in at the desk is, without reading who has played."""
        if broadcast is not None and name_key(person.name) in broadcast.check_ins:
            return True
        return self.checked_in_on(person, broadcast) is not None

    def block(self, match: Match) -> Block | None:
        """The first reason the pending match may not start now (busy, resting, not checked in, not before)."""
        found = self.blocks(match)
        return found[0] if found else None

    def blocks(self, match: Match, *, busy: list[tuple[str, str]] | None = None) -> list[Block]:
        """Every reason the pending match may not start now, in that order (the console shows them all, §19);
        `busy`: the match's `busy(match)` when the caller has it already."""
        found: list[Block] = []
        busy = self.busy(match) if busy is None else busy
        people = self.players.of(match)
        if busy:
            names = {p.side: p.name for p in people}
            found.append(Block(BlockReason.PLAYER_BUSY, _unique(names.get(side, side) for side, _ in busy),
                               table_ids=_unique(table_id for _, table_id in busy)))
        broadcast = self.broadcast_of(match)
        resting = [(p.name, until) for p in people if (until := self.resting_until(p, broadcast)) is not None]
        if resting:
            found.append(Block(BlockReason.PLAYER_RESTING, _unique(name for name, _ in resting),
                               until=iso(max(until for _, until in resting))))
        if broadcast is not None and broadcast.require_check_in:
            absent = [p.name for p in people if not self.checked_in(p, broadcast)]
            if absent:
                found.append(Block(BlockReason.NOT_CHECKED_IN, _unique(absent)))
        if match.not_before and parse_iso(match.not_before) > self.now:
            found.append(Block(BlockReason.NOT_BEFORE, _unique(p.name for p in people), until=match.not_before))
        elif (planned := plan_live.not_before(broadcast, match)) is not None and planned > self.now:  # §20
            found.append(Block(BlockReason.NOT_BEFORE, _unique(p.name for p in people), until=iso(planned)))
        return found


def _list_groups(match: Match, found: PlayerList | None) -> list[dict[str, Any]]:
    """The groups of matches whose players share a list key with this match's (`Players._list`): those naming the
    list by its `id`, and a partner's matches naming it by connection and externalID (or, for a list that is not
    found, the same reference)."""
    if found is not None:
        groups: list[dict[str, Any]] = [{"player_list_id": found.id}]
        if found.connection_id and found.external_id:
            groups.append({"connection_id": found.connection_id, "player_list_external_id": found.external_id,
                           "player_list_id": None})
        return groups
    if match.player_list_id:
        return [{"player_list_id": match.player_list_id}]
    return [{"connection_id": match.connection_id, "player_list_external_id": match.player_list_external_id,
             "player_list_id": None}]


def _unique(values: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(values))
