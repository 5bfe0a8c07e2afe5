"""The draw's state (contract §13) as plain data: entries, groups, rounds of draw matches, placings.

The engine (`domain.draws.engine`) builds and advances it; storage keeps it as one document; the API reads it in
the §13 shape. Nothing here knows real matches beyond the `matchID` a draw match points at.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from domain.models import DrawStatus as DrawStatus  # stored in `DrawRecord.status` too: a vocabulary of the models


class DrawFormat(StrEnum):
    ROUND_ROBIN = "round_robin"
    SINGLE_ELIMINATION = "single_elimination"
    DOUBLE_ELIMINATION = "double_elimination"
    GROUPS_KNOCKOUT = "groups_knockout"
    SWISS = "swiss"
    CONSOLATION = "consolation"
    FEED_IN = "feed_in"
    PLAYOFF_ALL = "playoff_all"
    ROUND_ROBIN_PLAYOFF = "round_robin_playoff"


class DrawMatchStatus(StrEnum):
    WAITING = "waiting"
    READY = "ready"
    ACTIVE = "active"
    COMPLETE = "complete"
    BYE = "bye"


class ResultType(StrEnum):
    PLAYED = "played"
    WALKOVER = "walkover"
    RETIRED = "retired"
    BYE = "bye"


class Stage(StrEnum):
    GROUP = "group"
    MAIN = "main"
    LOSERS = "losers"
    FINAL = "final"
    THIRD_PLACE = "third_place"
    SWISS = "swiss"
    CONSOLATION = "consolation"  # contract §22: consolation and feed_in
    PLAYOFF = "playoff"  # contract §22: playoff_all and round_robin_playoff


class SeedBy(StrEnum):
    """Where seeds come from (contract §22): the entries' own `seed`, or their `rating`."""

    RATING = "rating"


class Outcome(StrEnum):
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True)
class DrawPlayer:
    """A player of an entry: a manual name, or a player of one of the account's lists (name resolved)."""

    name: str
    player_list_external_id: str | None = None
    external_id: str | None = None


@dataclass
class Entry:
    id: str
    name: str
    players: list[DrawPlayer]
    club: str | None = None
    seed: int | None = None
    withdrawn: bool = False
    rating: float | None = None


@dataclass(frozen=True)
class Source:
    """Where a slot's entry comes from: another draw match's winner/loser, or a group's final rank.

    Frozen, as `DrawPlayer`, `Link` and `Score` are: values replaced, never changed in place, so that what a change
    of a stored draw changed is found by comparing them (`codec.match_mark`)."""

    draw_match_id: str | None = None
    outcome: Outcome | None = None
    group: str | None = None
    rank: int | None = None


@dataclass
class Slot:
    entry_id: str | None = None
    source: Source | None = None
    closed: bool = False  # can never be filled (a bye, or the loser of a bye)


@dataclass(frozen=True)
class Link:
    """Where a draw match's winner (or loser) goes. With `only_from`, a loser goes only if they played in that slot
    of the match; any other loser closes the target slot (contract §22: a consolation takes a bye holder who loses
    their first match played, not the one who beat them)."""

    draw_match_id: str
    slot: int
    only_from: int | None = None


@dataclass(frozen=True)
class Score:
    """What a result adds to standings, from slot 0's side (a) and slot 1's side (b)."""

    games_a: int = 0
    games_b: int = 0
    points_a: int = 0
    points_b: int = 0


@dataclass
class DrawMatch:
    id: str
    stage: Stage
    round_number: int
    number: int
    group: str | None
    slots: list[Slot]
    status: DrawMatchStatus = DrawMatchStatus.WAITING
    match_id: str | None = None
    winner_entry_id: str | None = None
    loser_entry_id: str | None = None
    result_type: ResultType | None = None
    next_winner: Link | None = None
    next_loser: Link | None = None
    score: Score | None = None
    ready_seq: int | None = None  # order in which draw matches became ready (pool order)

    def entry_ids(self) -> list[str]:
        return [s.entry_id for s in self.slots if s.entry_id is not None]


@dataclass
class Round:
    stage: Stage
    number: int
    draw_match_ids: list[str]
    first_place: int | None = None  # play-off rounds (contract §22): the best place its matches decide


@dataclass
class Standing:
    entry_id: str
    rank: int
    played: int = 0
    won: int = 0
    lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_won: int = 0
    points_lost: int = 0
    decided_by: str | None = None  # the tie-break step that put it above the row below (§22); None: not tied


@dataclass
class Group:
    name: str
    entry_ids: list[str]
    standings: list[Standing] = field(default_factory=list)
    finished: bool = False


@dataclass
class Placing:
    place: int
    entry_id: str
    stage: Stage | None = None  # `consolation` for the consolation's winner (contract §22); else the draw's places


@dataclass
class Options:
    advance_per_group: int = 2
    third_place: bool = False
    grand_final_reset: bool = False
    rounds: int = 0  # swiss
    best_of: int | None = None
    table_ids: list[str] | None = None
    separate_clubs: bool = True
    random_seed: int | None = None
    tiebreak: str | list[str] | None = None  # §22: "bwf", "ittf", "default" or custom steps; None: default
    feed_in_rounds: int | None = None  # feed_in: main rounds whose losers feed the consolation (None: 2)
    seed_by: SeedBy | None = None
    seed_count: int | None = None  # with seed_by: how many are seeded (default floor(n/4))


@dataclass
class Draw:
    id: str
    broadcast_id: str
    name: str
    format: DrawFormat
    created_on: str
    entries: list[Entry]
    options: Options
    groups: list[Group] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)
    matches: dict[str, DrawMatch] = field(default_factory=dict)
    placings: list[Placing] = field(default_factory=list)
    status: DrawStatus = DrawStatus.RUNNING
    ready_counter: int = 0

    def entry(self, entry_id: str) -> Entry:
        """The entry of that ID, by an index of `entries` (entries are added to the draw, never replaced), made again
        when the list is another or has grown (kept beside the fields: not compared, not stored)."""
        kept: tuple[int, int, dict[str, Entry]] | None = self.__dict__.get("_entry_index")
        if kept is None or kept[0] != id(self.entries) or kept[1] != len(self.entries):
            kept = (id(self.entries), len(self.entries), {entry.id: entry for entry in self.entries})
            self.__dict__["_entry_index"] = kept
        return kept[2][entry_id]

    def round_of(self, dm: DrawMatch) -> Round:
        """The round holding this draw match, by an index made again when rounds or draw matches were added (kept
        beside the fields as `entry`'s: not compared, not stored)."""
        kept: tuple[int, int, int, dict[str, Round]] | None = self.__dict__.get("_round_index")
        if kept is None or kept[:3] != (id(self.rounds), len(self.rounds), len(self.matches)):
            index = {i: rnd for rnd in self.rounds for i in rnd.draw_match_ids}
            kept = (id(self.rounds), len(self.rounds), len(self.matches), index)
            self.__dict__["_round_index"] = kept
        return kept[3][dm.id]

    def ordered_matches(self) -> list[DrawMatch]:
        return [self.matches[i] for rnd in self.rounds for i in rnd.draw_match_ids]
