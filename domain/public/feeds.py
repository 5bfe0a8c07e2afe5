"""The shapes of the public feeds, declared (issue 36, point 2): what `/outputs/{key}/state` (contract §10) and
`/event/{key}/state` and `/event/{key}/people/{personID}` (§15) serve (a broadcast's people rows, §14, are
`domain.event_day.people.PersonRowFeed`).

Each is a `TypedDict`: the builders are annotated with them, so mypy checks every key a builder writes (none
missing, none extra, each value's type), and `tests/domain/test_feed_shapes.py` checks the built feeds (what the
routes serve, with `version`) have exactly these keys, level by level. A page's JavaScript reads these names: a
change here is a change of the feed. (No `from __future__ import annotations` here: `NotRequired` must be seen
when the class is made, or `__required_keys__` counts those keys as required.)
"""

from typing import Any, NotRequired, TypedDict

from domain.models import MatchStatus, OutputKind


# ------------------------------------------------------------------------------------------ outputs (§10)
class SideShown(TypedDict):
    """One side of a match on a public page: names (partners in doubles), club or country, games (sets) won."""

    names: list[str]
    team: str | None
    games: int


class NextSide(TypedDict):
    """One side of a queued match: names and club, no score yet."""

    names: list[str]
    team: str | None


class MatchShown(TypedDict):
    """A match in its format (§18) as outputs show it."""

    sides: list[SideShown]
    kind: str
    games: list[dict[str, Any]]
    finished: list[dict[str, Any]]
    finishedText: str
    scoreText: str
    currentGame: dict[str, Any] | None
    currentSet: dict[str, int] | None
    status: MatchStatus
    event: str | None
    round: str | None
    bestOf: int
    startedOn: str | None


class NextShown(TypedDict):
    """A queued match as outputs show it: who, when expected, and since when called (§14)."""

    sides: list[NextSide]
    event: str | None
    round: str | None
    estimatedStartOn: str | None
    notBefore: str | None
    calledOn: str | None


class CourtShown(TypedDict):
    """A court as the venue display shows it."""

    label: str
    match: MatchShown | None
    upNext: list[NextShown]


class Named(TypedDict):
    name: str


class Labelled(TypedDict):
    label: str


class CourtOutputFeed(TypedDict):
    """`/outputs/{key}/state` of a court output (without `version`, which the route adds)."""

    design: str
    kind: OutputKind
    broadcast: Named
    court: Labelled
    match: MatchShown | None
    upNext: list[NextShown]


class VenueOutputFeed(TypedDict):
    """`/outputs/{key}/state` of the venue display (without `version`)."""

    design: str
    kind: OutputKind
    broadcast: Named
    courts: list[CourtShown]


OutputFeed = CourtOutputFeed | VenueOutputFeed


# ------------------------------------------------------------------------------------------ event page (§15)
class CardSide(TypedDict):
    names: list[str]
    team: str | None
    games: int


class MatchCardFeed(TypedDict):
    """One match as the event page shows it, everywhere on the page; `pool` on the court pool's cards, `side`
    ("a" or "b") on a person's own cards, the planned time once the order of play is published (§20)."""

    court: str | None
    status: MatchStatus
    event: str | None
    round: str | None
    sides: list[CardSide]
    kind: str
    games: list[dict[str, Any]]
    finished: list[dict[str, Any]]
    finishedText: str
    scoreText: str
    currentGame: dict[str, Any] | None
    currentSet: dict[str, int] | None
    winner: str | None
    result: str | None
    estimatedStartOn: str | None
    calledOn: str | None
    startedOn: str | None
    completedOn: str | None
    pool: NotRequired[bool]
    side: NotRequired[str]
    plannedOn: NotRequired[str | None]  # the planned time (§20); on a personal card its `notBefore`, null if none
    plannedCourt: NotRequired[str]
    timeChanged: NotRequired[dict[str, str] | None]


class CourtNowFeed(TypedDict):
    """A court under "Now": its match in play, the matches called to it, the next ones."""

    label: str
    match: MatchCardFeed | None
    called: list[MatchCardFeed]
    upNext: list[MatchCardFeed]
    late: NotRequired[str | None]  # once the order of play is published (§20)


class WaitingFeed(TypedDict):
    """The court pool's first matches (§13) and how many more wait."""

    matches: list[MatchCardFeed]
    more: int


class PagePerson(TypedDict):
    """A person of the page (for "My matches"): the page's own ID, the name as first spelled, the club."""

    personID: str
    name: str
    club: str | None


class DrawStanding(TypedDict):
    """A row of a group's table: rank, games, and the entry's name."""

    rank: int
    played: int
    won: int
    lost: int
    gamesWon: int
    gamesLost: int
    name: str


class DrawGroupShown(TypedDict):
    """A group's table, and under it the places a tie-break step decided, in words (§22)."""

    name: str
    standings: list[DrawStanding]
    tiebreaks: list[str]


class DrawSideShown(TypedDict):
    name: str | None
    winner: bool
    games: int | None


class DrawMatchShown(TypedDict):
    """A draw match in its bracket: `next` is the column and row of the match its winner plays next."""

    status: str
    group: str | None
    resultType: str | None
    next: list[int] | None
    sides: list[DrawSideShown]


class DrawRoundShown(TypedDict):
    name: str
    matches: list[DrawMatchShown]


class BracketShown(TypedDict):
    """One bracket: the main draw, a consolation, a play-off sub-bracket (`Places 5-8`), Swiss rounds."""

    name: str
    rounds: list[DrawRoundShown]


class PlacingShown(TypedDict):
    place: int
    name: str
    stage: NotRequired[str]  # `consolation` for the consolation's winner (§22)


class DrawShown(TypedDict):
    """A draw as the event page shows it: names, scores and placings, no IDs (§15)."""

    name: str
    format: str
    status: str
    groups: list[DrawGroupShown]
    tiebreak: str | None
    standingUnit: str  # what a standing's games column counts: "Sets" (tennis, padel) or "Games"
    brackets: list[BracketShown]
    placings: list[PlacingShown]


class EventFeed(TypedDict):
    """`/event/{key}/state` (without `version`, which the route adds)."""

    event: Named
    courts: list[CourtNowFeed]
    waiting: WaitingFeed
    draws: list[DrawShown]
    results: list[MatchCardFeed]
    people: list[PagePerson]
    orderOfPlay: NotRequired[list[dict[str, Any]]]  # once published (§20)


class PersonFeed(TypedDict):
    """`/event/{key}/people/{personID}`: one person's matches."""

    person: PagePerson
    current: MatchCardFeed | None
    next: MatchCardFeed | None
    upcoming: list[MatchCardFeed]
    finished: list[MatchCardFeed]


# ------------------------------------------------------------------------------------ personal page (§21)
class PersonalCard(MatchCardFeed):
    """One of the person's matches on their own page: the event page's card, with the match (what a report
    names), the person's side and the most games or sets it has (the rows of the report form)."""

    matchID: str
    bestOf: int


class PersonalPerson(TypedDict):
    name: str
    club: str | None
    checkedIn: bool


class CalledShown(TypedDict):
    """The match the person is called to: the banner ("Court 2, now")."""

    matchID: str
    court: str | None
    calledOn: str


class ReportShown(TypedDict):
    """A result reported through a personal page (§21); `mine`: this person reported it."""

    reportID: str
    matchID: str
    gameScores: list[dict[str, Any]]
    reportedBy: str
    status: str
    reportedOn: str
    mine: bool


class PersonalFeed(TypedDict):
    """`/me/{key}/state` (without `version`, which the route adds)."""

    event: Named
    person: PersonalPerson
    called: CalledShown | None
    current: PersonalCard | None
    next: list[PersonalCard]
    results: list[PersonalCard]
    reports: list[ReportShown]
    selfCheckIn: bool
    selfReport: bool
