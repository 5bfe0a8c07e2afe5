"""The draw read (contract §13, §22) as one typed value: built once from a draw (`draw_read`), serialised by one
function (`draw_json`) and parsed back by one (`draw_from_json`, for the console, which reads it over HTTP).

What the event page, the console and print make of a draw (the play-off sub-brackets, `playoff_brackets`) is
worked out here once, on the typed read, never on its camelCase JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.draws.labels import RoundShape, draw_round_names, round_short_names
from domain.draws.model import Draw, DrawMatch, DrawMatchStatus, ResultType, Slot, Stage
from domain.draws.standings import Setting, setting_read


@dataclass(frozen=True)
class PlayerRead:
    """A player of an entry: a manual name, or a player of one of the account's lists."""

    name: str
    player_list_external_id: str | None = None
    external_id: str | None = None


@dataclass(frozen=True)
class EntryRead:
    id: str
    name: str
    club: str | None
    seed: int | None
    rating: float | None
    withdrawn: bool
    players: tuple[PlayerRead, ...]


@dataclass(frozen=True)
class StandingRead:
    entry_id: str
    rank: int
    played: int
    won: int
    lost: int
    games_won: int
    games_lost: int
    points_won: int
    points_lost: int
    decided_by: str | None


@dataclass(frozen=True)
class GroupRead:
    name: str
    entry_ids: tuple[str, ...]
    standings: tuple[StandingRead, ...]


@dataclass(frozen=True)
class FromRead:
    """Where a slot's entry comes from: a draw match's winner or loser, or a group's rank."""

    draw_match_id: str | None = None
    outcome: str | None = None
    group: str | None = None
    rank: int | None = None


@dataclass(frozen=True)
class SlotRead:
    entry_id: str | None
    origin: FromRead | None


@dataclass(frozen=True)
class NextRead:
    """Where a draw match's winner (or loser) goes: that draw match's slot."""

    draw_match_id: str
    slot: int


@dataclass(frozen=True)
class DrawMatchRead:
    id: str
    number: int
    group: str | None
    slots: tuple[SlotRead, ...]
    status: DrawMatchStatus
    match_id: str | None
    winner_entry_id: str | None
    loser_entry_id: str | None
    result_type: ResultType | None
    next_winner: NextRead | None
    next_loser: NextRead | None
    planned_table_id: str | None = None  # where and when the order of play puts it (contract §20)
    planned_on: str | None = None


@dataclass(frozen=True)
class RoundRead:
    stage: Stage
    number: int
    name: str
    draw_matches: tuple[DrawMatchRead, ...]
    first_place: int | None  # play-off rounds (§22): the best place its matches decide


@dataclass(frozen=True)
class PlacingRead:
    place: int
    entry_id: str
    stage: Stage | None  # `consolation` for the consolation's winner (§22)


@dataclass(frozen=True)
class DrawRead:
    """The §13 draw read. `scoring`/`scoring_name` are the draw's own format, None when it has none."""

    id: str
    broadcast_id: str
    name: str
    format: str
    scoring: dict[str, Any] | None
    scoring_name: str | None
    status: str
    created_on: str
    entries: tuple[EntryRead, ...]
    groups: tuple[GroupRead, ...]
    tiebreak: Setting | None
    rounds: tuple[RoundRead, ...]
    placings: tuple[PlacingRead, ...]

    def names(self) -> dict[str, str]:
        """Each entry's display name by its ID."""
        return {entry.id: entry.name for entry in self.entries}

    def match_ids(self) -> list[str]:
        """The real matches the draw's matches point at, in round order."""
        return [dm.match_id for rnd in self.rounds for dm in rnd.draw_matches if dm.match_id]


# ------------------------------------------------------------------------------------------------ build
def _slot(slot: Slot) -> SlotRead:
    source = slot.source
    origin: FromRead | None = None
    if source is not None and source.draw_match_id is not None:
        origin = FromRead(draw_match_id=source.draw_match_id, outcome=str(source.outcome))
    elif source is not None and source.group is not None:
        origin = FromRead(group=source.group, rank=source.rank)
    return SlotRead(entry_id=slot.entry_id, origin=origin)


def _draw_match(dm: DrawMatch, planned: Mapping[str, Mapping[str, Any]]) -> DrawMatchRead:
    where = planned.get(dm.id)
    return DrawMatchRead(
        id=dm.id, number=dm.number, group=dm.group, slots=tuple(_slot(s) for s in dm.slots), status=dm.status,
        match_id=dm.match_id, winner_entry_id=dm.winner_entry_id, loser_entry_id=dm.loser_entry_id,
        result_type=dm.result_type,
        next_winner=None if dm.next_winner is None else NextRead(dm.next_winner.draw_match_id, dm.next_winner.slot),
        next_loser=None if dm.next_loser is None else NextRead(dm.next_loser.draw_match_id, dm.next_loser.slot),
        planned_table_id=None if where is None else where["table_id"],
        planned_on=None if where is None else where["planned_on"],
    )


def draw_read(draw: Draw, *, scoring: dict[str, Any] | None, scoring_name: str | None,
              planned: Mapping[str, Mapping[str, Any]] | None = None) -> DrawRead:
    """The typed read of a draw, in the draw's own format (`scoring`: its JSON; None when it has none); `planned`:
    its broadcast's stored order of play (§20), by draw match."""
    planned = planned or {}
    return DrawRead(
        id=draw.id, broadcast_id=draw.broadcast_id, name=draw.name, format=str(draw.format), scoring=scoring,
        scoring_name=scoring_name, status=str(draw.status), created_on=draw.created_on,
        entries=tuple(EntryRead(id=e.id, name=e.name, club=e.club, seed=e.seed, rating=e.rating,
                                withdrawn=e.withdrawn,
                                players=tuple(PlayerRead(p.name, p.player_list_external_id, p.external_id)
                                              for p in e.players)) for e in draw.entries),
        groups=tuple(GroupRead(name=g.name, entry_ids=tuple(g.entry_ids), standings=tuple(
            StandingRead(entry_id=s.entry_id, rank=s.rank, played=s.played, won=s.won, lost=s.lost,
                         games_won=s.games_won, games_lost=s.games_lost, points_won=s.points_won,
                         points_lost=s.points_lost, decided_by=s.decided_by) for s in g.standings))
                     for g in draw.groups),
        tiebreak=setting_read(str(draw.format), draw.options.tiebreak),
        rounds=tuple(RoundRead(stage=r.stage, number=r.number, name=name,
                               draw_matches=tuple(_draw_match(draw.matches[i], planned) for i in r.draw_match_ids),
                               first_place=r.first_place)
                     for r, name in zip(draw.rounds, draw_round_names(draw), strict=True)),
        placings=tuple(PlacingRead(place=p.place, entry_id=p.entry_id, stage=p.stage) for p in draw.placings),
    )


# ------------------------------------------------------------------------------------------------ serialise
def _player_json(player: PlayerRead) -> dict[str, Any]:
    if player.external_id is None:
        return {"manualName": player.name}
    return {"playerListExternalID": player.player_list_external_id, "externalID": player.external_id,
            "name": player.name}


def _from_json(origin: FromRead | None) -> dict[str, Any] | None:
    if origin is None:
        return None
    if origin.draw_match_id is not None:
        return {"drawMatchID": origin.draw_match_id, "outcome": origin.outcome}
    return {"group": origin.group, "rank": origin.rank}


def _next_json(link: NextRead | None) -> dict[str, Any] | None:
    return None if link is None else {"drawMatchID": link.draw_match_id, "slot": link.slot}


def _draw_match_json(dm: DrawMatchRead) -> dict[str, Any]:
    shown = {
        "id": dm.id, "number": dm.number, "group": dm.group,
        "slots": [{"entryID": s.entry_id, "from": _from_json(s.origin)} for s in dm.slots],
        "status": str(dm.status), "matchID": dm.match_id, "winnerEntryID": dm.winner_entry_id,
        "loserEntryID": dm.loser_entry_id, "resultType": None if dm.result_type is None else str(dm.result_type),
        "next": {"winner": _next_json(dm.next_winner), "loser": _next_json(dm.next_loser)},
    }
    if dm.planned_on is not None:  # planned by the order of play (§20)
        shown.update(plannedTableID=dm.planned_table_id, plannedOn=dm.planned_on)
    return shown


def draw_json(read: DrawRead) -> dict[str, Any]:
    """The one serialisation of a draw read (the API's and the console's), members in the order the OpenAPI
    document lists them (the API answers it as built: `api/schemas/draws.py` `DrawRead`): `firstPlace` on play-off
    rounds only, a placing's `stage` only when it has one."""
    return {
        "id": read.id, "broadcastID": read.broadcast_id, "name": read.name, "format": read.format,
        "status": read.status, "createdOn": read.created_on, "scoring": read.scoring,
        "scoringName": read.scoring_name,
        "entries": [{"id": e.id, "name": e.name, "club": e.club, "seed": e.seed, "rating": e.rating,
                     "players": [_player_json(p) for p in e.players], "withdrawn": e.withdrawn}
                    for e in read.entries],
        "tiebreak": list(read.tiebreak) if isinstance(read.tiebreak, list) else read.tiebreak,
        "groups": [{"name": g.name, "entryIDs": list(g.entry_ids), "standings": [
            {"entryID": s.entry_id, "rank": s.rank, "played": s.played, "won": s.won, "lost": s.lost,
             "gamesWon": s.games_won, "gamesLost": s.games_lost, "pointsWon": s.points_won,
             "pointsLost": s.points_lost, "decidedBy": s.decided_by} for s in g.standings]} for g in read.groups],
        "rounds": [{"stage": str(r.stage), "number": r.number, "name": r.name}
                   | ({} if r.first_place is None else {"firstPlace": r.first_place})
                   | {"drawMatches": [_draw_match_json(dm) for dm in r.draw_matches]} for r in read.rounds],
        "placings": [{"place": p.place, "entryID": p.entry_id} | ({} if p.stage is None else {"stage": str(p.stage)})
                     for p in read.placings],
    }


# ------------------------------------------------------------------------------------------------ parse
def _origin(doc: dict[str, Any] | None) -> FromRead | None:
    if doc is None:
        return None
    if doc.get("drawMatchID") is not None:
        return FromRead(draw_match_id=doc["drawMatchID"], outcome=doc.get("outcome"))
    return FromRead(group=doc.get("group"), rank=doc.get("rank"))


def _next(doc: dict[str, Any] | None) -> NextRead | None:
    return None if doc is None else NextRead(draw_match_id=doc["drawMatchID"], slot=doc["slot"])


def _parse_draw_match(doc: dict[str, Any]) -> DrawMatchRead:
    links = doc.get("next") or {}
    return DrawMatchRead(
        id=doc["id"], number=doc["number"], group=doc.get("group"),
        slots=tuple(SlotRead(entry_id=s.get("entryID"), origin=_origin(s.get("from"))) for s in doc["slots"]),
        status=DrawMatchStatus(doc["status"]), match_id=doc.get("matchID"), winner_entry_id=doc.get("winnerEntryID"),
        loser_entry_id=doc.get("loserEntryID"),
        result_type=None if doc.get("resultType") is None else ResultType(doc["resultType"]),
        next_winner=_next(links.get("winner")), next_loser=_next(links.get("loser")),
        planned_table_id=doc.get("plannedTableID"), planned_on=doc.get("plannedOn"),
    )


def _parse_player(doc: dict[str, Any]) -> PlayerRead:
    if "manualName" in doc:
        return PlayerRead(name=doc["manualName"])
    return PlayerRead(name=doc["name"], player_list_external_id=doc.get("playerListExternalID"),
                      external_id=doc.get("externalID"))


def draw_from_json(doc: dict[str, Any]) -> DrawRead:
    """The typed read of a draw read as JSON (`draw_json`'s inverse): what the console gets over HTTP."""
    return DrawRead(
        id=doc["id"], broadcast_id=doc["broadcastID"], name=doc["name"], format=doc["format"],
        scoring=doc.get("scoring"), scoring_name=doc.get("scoringName"), status=doc["status"],
        created_on=doc["createdOn"],
        entries=tuple(EntryRead(id=e["id"], name=e["name"], club=e.get("club"), seed=e.get("seed"),
                                rating=e.get("rating"), withdrawn=bool(e.get("withdrawn")),
                                players=tuple(_parse_player(p) for p in e.get("players", [])))
                      for e in doc["entries"]),
        groups=tuple(GroupRead(name=g["name"], entry_ids=tuple(g["entryIDs"]), standings=tuple(
            StandingRead(entry_id=s["entryID"], rank=s["rank"], played=s["played"], won=s["won"], lost=s["lost"],
                         games_won=s["gamesWon"], games_lost=s["gamesLost"], points_won=s["pointsWon"],
                         points_lost=s["pointsLost"], decided_by=s.get("decidedBy")) for s in g["standings"]))
                     for g in doc["groups"]),
        tiebreak=doc.get("tiebreak"),
        rounds=tuple(RoundRead(stage=Stage(r["stage"]), number=r["number"], name=r["name"],
                               draw_matches=tuple(_parse_draw_match(dm) for dm in r["drawMatches"]),
                               first_place=r.get("firstPlace")) for r in doc["rounds"]),
        placings=tuple(PlacingRead(place=p["place"], entry_id=p["entryID"],
                                   stage=None if p.get("stage") is None else Stage(p["stage"]))
                       for p in doc["placings"]),
    )


# ------------------------------------------------------------------------------------------------ shown
def short_round_names(read: DrawRead) -> list[str]:
    """Each round's short form (`QF`, `R16`, `P5-8`, `3rd`), in the read's order, made from the rounds' structure
    by `labels.round_short_names` (the console's 'Winner QF 2'): never parsed back from a round's name."""
    shapes = [RoundShape(r.stage, r.number, len(r.draw_matches), r.first_place) for r in read.rounds]
    return round_short_names(read.format, shapes, entries=len(read.entries),
                             group_sizes=[len(g.entry_ids) for g in read.groups])


def playoff_brackets(read: DrawRead) -> list[list[RoundRead]]:
    """The play-off rounds (contract §22) as sub-brackets: rounds joined by their winners' links are one bracket
    (`Places 9-16`, then `Places 9-12`, then `Places 9-10`); the losers of each start another. Ordered by the best
    place each decides (`first_place`); a sub-bracket of places nobody takes (its best place beyond the entries, or
    byes only and no entry) is left out. The one grouping the event page, the console and print draw."""
    playoff = [r for r in read.rounds if r.stage == Stage.PLAYOFF]
    round_of = {dm.id: index for index, r in enumerate(playoff) for dm in r.draw_matches}
    root = list(range(len(playoff)))

    def find(index: int) -> int:
        while root[index] != index:
            index = root[index]
        return index

    for index, rnd in enumerate(playoff):
        for dm in rnd.draw_matches:
            if dm.next_winner is not None and dm.next_winner.draw_match_id in round_of:
                root[find(round_of[dm.next_winner.draw_match_id])] = find(index)
    grouped: dict[int, list[RoundRead]] = {}
    for index, rnd in enumerate(playoff):
        grouped.setdefault(find(index), []).append(rnd)
    entries = len(read.entries)
    shown = [group for group in grouped.values() if (group[0].first_place or 0) <= entries
             and any(slot.entry_id or dm.status != DrawMatchStatus.BYE
                     for r in group for dm in r.draw_matches for slot in dm.slots)]
    return sorted(shown, key=lambda group: group[0].first_place or 0)
