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
    plannedOn: NotRequired[str]
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


class EventFeed(TypedDict):
    """`/event/{key}/state` (without `version`, which the route adds)."""

    event: Named
    courts: list[CourtNowFeed]
    waiting: WaitingFeed
    draws: list[dict[str, Any]]
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
