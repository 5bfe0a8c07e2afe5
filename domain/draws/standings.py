"""Group and Swiss standings (contract §13, §22), ranked by a tie-break rule: a rule is data, a list of steps.

A draw's `tiebreak` names the rule: `"bwf"`, `"ittf"`, `"default"` (§13's order) or a list of steps of its own.
The first step of a rule ranks (wins; ITTF's match points); the later steps break ties among the entries it leaves
level, in order. Each standing row says which step put it above the row below (`decidedBy`): `None` when the
first step already did (not tied), `"unbroken"` when no step of the rule separates them (a custom list without
`lot`, or unseeded entries under `default`): they keep the draw's entry order, so ranks are always 1…n.

BWF, ITTF and `default` start again among the entries a step left level (BWF GCR 16.2.4: two still level are
decided by the match between them; ITTF 3.7.5.2: the matches between the entries still level only; `default`:
three level, one ahead on game difference, the other two are decided by the match between them, issue 51); a
custom list goes on with its next step, as written. Steps "among the tied" count only the matches between the
entries still level at that step; the others count every decided match given. Pure: no storage, no clock; the
same input, the same standings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

from domain.draws.model import DrawFormat, DrawMatch, DrawMatchStatus, Entry, Options, ResultType, Standing
from domain.errors import Invalid

UNBROKEN = "unbroken"
RULE_NAMES = ("bwf", "ittf", "default")
# The formats whose placings come from standings (§22 "round robin, groups and Swiss draws").
RANKED_FORMATS = frozenset({DrawFormat.ROUND_ROBIN, DrawFormat.GROUPS_KNOCKOUT, DrawFormat.SWISS,
                            DrawFormat.ROUND_ROBIN_PLAYOFF})
Setting = str | list[str]  # what a draw's `tiebreak` holds: a rule's name or a list of custom steps


class Measure(StrEnum):
    """What a step compares, higher first (seed: the lower seed number first, unseeded last)."""

    WINS = "wins"
    MATCH_POINTS = "match_points"  # ITTF: 2 a win, 1 a loss, 0 a walkover lost
    GAME_DIFFERENCE = "game_difference"
    POINT_DIFFERENCE = "point_difference"
    GAMES_WON = "games_won"
    POINTS_WON = "points_won"
    GAME_RATIO = "game_ratio"
    POINT_RATIO = "point_ratio"
    SEED = "seed"
    LOT = "lot"


@dataclass(frozen=True)
class Step:
    """One step of a rule: `name` is what `decidedBy` says when it separates two rows."""

    name: str
    measure: Measure
    among_tied: bool = False  # counts only the matches between the entries still level
    only_two: bool = False  # applies only when exactly two entries are level (BWF's head-to-head)


@dataclass(frozen=True)
class Rule:
    """A tie-break rule: its steps in order, and where a still-level set starts again after a step split the set
    it was in (`restart`: BWF and ITTF), or None to go on with the next step."""

    name: str
    steps: tuple[Step, ...]
    restart: int | None = None


WINS = Step("wins", Measure.WINS)
HEAD_TO_HEAD = Step("head_to_head", Measure.WINS, among_tied=True)
GAME_DIFFERENCE = Step("game_difference", Measure.GAME_DIFFERENCE)
POINT_DIFFERENCE = Step("point_difference", Measure.POINT_DIFFERENCE)
GAMES_WON = Step("games_won", Measure.GAMES_WON)
POINTS_WON = Step("points_won", Measure.POINTS_WON)
SEED = Step("seed", Measure.SEED)
LOT = Step("lot", Measure.LOT)
# The steps a custom list may name (§22), by name.
CUSTOM_STEPS: dict[str, Step] = {s.name: s for s in (WINS, HEAD_TO_HEAD, GAME_DIFFERENCE, POINT_DIFFERENCE, GAMES_WON,
                                                     POINTS_WON, SEED, LOT)}

BWF = Rule("bwf", (WINS, Step("head_to_head", Measure.WINS, among_tied=True, only_two=True), GAME_DIFFERENCE,
                   POINT_DIFFERENCE, LOT), restart=1)
ITTF = Rule("ittf", (Step("match_points", Measure.MATCH_POINTS),
                     Step("match_points", Measure.MATCH_POINTS, among_tied=True),
                     Step("game_ratio", Measure.GAME_RATIO, among_tied=True),
                     Step("point_ratio", Measure.POINT_RATIO, among_tied=True), LOT), restart=1)
DEFAULT = Rule("default", (WINS, HEAD_TO_HEAD, GAME_DIFFERENCE, POINT_DIFFERENCE, SEED), restart=1)
RULES = {rule.name: rule for rule in (BWF, ITTF, DEFAULT)}
# Every value `decidedBy` takes besides None.
DECIDED_BY = (*CUSTOM_STEPS, "match_points", "game_ratio", "point_ratio", UNBROKEN)


def _refused(message: str) -> Invalid:
    return Invalid(message, details={"json": {"tiebreak": [message]}})


def checked_setting(value: object) -> Setting:
    """A body's `tiebreak` as the draw keeps it: a rule's name, or a list of 1-8 distinct custom steps;
    anything else is `400 validation_failed` naming `tiebreak` (an unknown step by its name)."""
    if isinstance(value, str):
        if value in RULES:
            return value
        raise _refused(f"Unknown tie-break rule '{value}': give bwf, ittf, default or a list of steps.")
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        unknown = [item for item in value if item not in CUSTOM_STEPS]
        if unknown:
            raise _refused(f"Unknown tie-break step '{unknown[0]}': steps are {', '.join(CUSTOM_STEPS)}.")
        if len(set(value)) != len(value):
            raise _refused("A tie-break step is named twice.")
        return [str(item) for item in value]
    raise _refused("Give a rule (bwf, ittf, default) or a non-empty list of steps.")


def check_format(fmt: str, setting: Setting | None) -> None:
    """`tiebreak` is for the formats ranked by standings only."""
    if setting is not None and fmt not in RANKED_FORMATS:
        raise _refused(f"tiebreak is for {', '.join(sorted(RANKED_FORMATS))} draws, not {fmt}.")


def rule_of(setting: Setting | None) -> Rule:
    """The rule a draw's setting names (None, as draws made before §22 have: `default`)."""
    if setting is None:
        return DEFAULT
    if isinstance(setting, str):
        return RULES[setting]
    return Rule("custom", tuple(CUSTOM_STEPS[name] for name in setting))


def setting_read(fmt: str, setting: Setting | None) -> Setting | None:
    """The draw read's `tiebreak`: the rule ranking its standings, null for a format without standings."""
    if fmt not in RANKED_FORMATS:
        return None
    return list(setting) if isinstance(setting, list) else setting or "default"


# ------------------------------------------------------------------------------------------------- tallies
@dataclass(slots=True)
class _Result:
    """A decided draw match from the winner's side: games and points of winner (w) and loser (l)."""

    winner: str
    loser: str | None  # None: a bye
    walkover: bool
    games_w: int = 0
    games_l: int = 0
    points_w: int = 0
    points_l: int = 0


@dataclass(slots=True)
class _Tally:
    won: int = 0
    lost: int = 0
    byes: int = 0
    walkovers_lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    points_won: int = 0
    points_lost: int = 0

    def add(self, result: _Result, *, winner: bool) -> None:
        if winner:
            self.won += 1
            self.byes += result.loser is None
            self.games_won += result.games_w
            self.games_lost += result.games_l
            self.points_won += result.points_w
            self.points_lost += result.points_l
        else:
            self.lost += 1
            self.walkovers_lost += result.walkover
            self.games_won += result.games_l
            self.games_lost += result.games_w
            self.points_won += result.points_l
            self.points_lost += result.points_w


def _ratio(won: int, lost: int) -> Fraction | float:
    """won / lost; nothing lost is infinite when something was won (ITTF), 0 when nothing was played."""
    if lost:
        return Fraction(won, lost)
    return float("inf") if won else Fraction(0)


def _results(matches: Iterable[DrawMatch]) -> list[_Result]:
    found = []
    decided = (DrawMatchStatus.COMPLETE, DrawMatchStatus.BYE)
    for m in matches:
        winner = m.winner_entry_id
        if winner is None or m.status not in decided:
            continue
        if m.result_type == ResultType.BYE or m.loser_entry_id is None:
            found.append(_Result(winner, None, False))
            continue
        score = m.score
        walkover = m.result_type == ResultType.WALKOVER
        if score is None:
            found.append(_Result(winner, m.loser_entry_id, walkover))
        elif m.slots[0].entry_id == winner:
            found.append(_Result(winner, m.loser_entry_id, walkover, score.games_a, score.games_b, score.points_a,
                                 score.points_b))
        else:
            found.append(_Result(winner, m.loser_entry_id, walkover, score.games_b, score.games_a, score.points_b,
                                 score.points_a))
    return found


@dataclass
class _Ranking:
    """What ranking one set of entries needs: the rule, every entry's tallies over all its results, its results by
    entry (for the tallies among a tied set), seeds, lots and the entries' order."""

    rule: Rule
    order: dict[str, int]
    seeds: dict[str, int | None]
    lots: dict[str, int]
    overall: dict[str, _Tally] = field(default_factory=dict)
    by_entry: dict[str, list[_Result]] = field(default_factory=dict)

    def among(self, members: Sequence[str]) -> dict[str, _Tally]:
        """Tallies over the matches between `members` only (each such match counted once)."""
        inside = set(members)
        tallies = {e: _Tally() for e in members}
        for entry in members:
            for result in self.by_entry.get(entry, ()):
                if result.winner == entry and result.loser is not None and result.loser in inside:
                    tallies[entry].add(result, winner=True)
                    tallies[result.loser].add(result, winner=False)
        return tallies

    def key(self, step: Step, entry: str, tally: _Tally) -> Fraction | float | int:
        measure = step.measure
        if measure == Measure.WINS:
            return tally.won
        if measure == Measure.MATCH_POINTS:
            return 2 * tally.won + tally.lost - tally.walkovers_lost
        if measure == Measure.GAME_DIFFERENCE:
            return tally.games_won - tally.games_lost
        if measure == Measure.POINT_DIFFERENCE:
            return tally.points_won - tally.points_lost
        if measure == Measure.GAMES_WON:
            return tally.games_won
        if measure == Measure.POINTS_WON:
            return tally.points_won
        if measure == Measure.GAME_RATIO:
            return _ratio(tally.games_won, tally.games_lost)
        if measure == Measure.POINT_RATIO:
            return _ratio(tally.points_won, tally.points_lost)
        if measure == Measure.SEED:
            seed = self.seeds[entry]
            return float("-inf") if seed is None else -seed
        return self.lots[entry]

    def resolve(self, members: list[str], index: int) -> tuple[list[str], list[str | None]]:
        """`members` in order, from step `index` on, and for each but the last what separated it from the next."""
        steps = self.rule.steps
        while len(members) > 1 and index < len(steps):
            step = steps[index]
            if step.only_two and len(members) != 2:
                index += 1
                continue
            tallies = self.among(members) if step.among_tied else self.overall
            keys = {e: self.key(step, e, tallies[e]) for e in members}
            levels = sorted(set(keys.values()), reverse=True)
            if len(levels) == 1:
                index += 1
                continue
            label = None if index == 0 else step.name
            after = self.rule.restart if self.rule.restart is not None and index > 0 else index + 1
            ordered: list[str] = []
            between: list[str | None] = []
            for level in levels:
                part, inner = self.resolve([e for e in members if keys[e] == level], after)
                if ordered:
                    between.append(label)
                ordered += part
                between += inner
            return ordered, between
        ordered = sorted(members, key=self.order.__getitem__)
        return ordered, [UNBROKEN] * (len(ordered) - 1)


def _lot(random_seed: int | None, entry: Entry, position: int) -> int:
    """An entry's lot: from `randomSeed` and its place in the group (the same body and seed, the same lots), or
    from its random ID when the draw has no seed; fixed for the draw's life, so every recount draws the same."""
    material = f"{random_seed}:{position}" if random_seed is not None else entry.id
    return int.from_bytes(hashlib.sha256(f"lot:{material}".encode()).digest()[:8], "big")


def standings(entries: Sequence[Entry], matches: Iterable[DrawMatch], options: Options | None = None) -> list[Standing]:
    """The entries' standings over the decided draw matches given, ranked 1…n by the draw's tie-break rule
    (`options.tiebreak`, lots from `options.random_seed`), each row with `decided_by`."""
    rule = rule_of(options.tiebreak if options is not None else None)
    random_seed = options.random_seed if options is not None else None
    ranking = _Ranking(rule=rule, order={e.id: i for i, e in enumerate(entries)},
                       seeds={e.id: e.seed for e in entries},
                       lots={e.id: _lot(random_seed, e, i) for i, e in enumerate(entries)}
                       if any(step.measure == Measure.LOT for step in rule.steps) else {},
                       overall={e.id: _Tally() for e in entries})
    for result in _results(matches):
        for entry, won in ((result.winner, True), (result.loser, False)):
            if entry is not None and entry in ranking.overall:
                ranking.overall[entry].add(result, winner=won)
                ranking.by_entry.setdefault(entry, []).append(result)
    rows = []
    ordered, between = ranking.resolve([e.id for e in entries], 0)
    for rank, entry_id in enumerate(ordered, start=1):
        tally = ranking.overall[entry_id]
        rows.append(Standing(entry_id=entry_id, rank=rank, played=tally.won + tally.lost - tally.byes, won=tally.won,
                             lost=tally.lost,
                             games_won=tally.games_won, games_lost=tally.games_lost, points_won=tally.points_won,
                             points_lost=tally.points_lost,
                             decided_by=between[rank - 1] if rank - 1 < len(between) else None))
    return rows


# ---------------------------------------------------------------------------------------------------- words
WORDS = {
    "wins": "on wins", "head_to_head": "on head-to-head", "game_difference": "on game difference",
    "point_difference": "on point difference", "games_won": "on games won", "points_won": "on points won",
    "seed": "on seed", "lot": "by lot", "match_points": "on match points between them",
    "game_ratio": "on game ratio between them", "point_ratio": "on point ratio between them",
    UNBROKEN: "level with the next on every step (listed in draw order)",
}
RULE_WORDS = {"bwf": "BWF", "ittf": "ITTF", "default": "wins, head-to-head, game and point difference, seed"}


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, …, 21st."""
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def decided_words(rank: int, decided_by: str | None) -> str | None:
    """A standing row's place in words when a tie-break step decided it ("2nd on head-to-head"), else None."""
    if decided_by is None:
        return None
    joint = ", " if decided_by == UNBROKEN else " "
    return f"{ordinal(rank)}{joint}{WORDS.get(decided_by, 'on ' + decided_by.replace('_', ' '))}"


@dataclass(frozen=True)
class Placed:
    """A standing row as the words need it: who, their rank, `decidedBy` and matches played."""

    name: str
    rank: int
    decided_by: str | None
    played: int


def tie_notes(rows: Sequence[Placed]) -> list[str]:
    """A group's places a tie-break step decided, in words ("Bea 2nd on head-to-head"), once a match of the group
    is played (before, every row is level and only lots or seeds separate them: nothing worth saying)."""
    if not any(row.played for row in rows):
        return []
    return [f"{row.name} {words}" for row in rows if (words := decided_words(row.rank, row.decided_by)) is not None]


def rule_words(setting: Setting | None) -> str:
    """The rule in words for a caption: "BWF", "ITTF", or its steps."""
    if isinstance(setting, list):
        return ", ".join(step.replace("_", " ").replace("head to head", "head-to-head") for step in setting)
    return RULE_WORDS.get(setting or "default", str(setting))
