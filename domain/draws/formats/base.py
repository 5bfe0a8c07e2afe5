"""What a draw format is (contract §13, §22): how it is built from the body, what it checks, what it does beyond
its links when a draw match is decided, and the places it decides. One module per format, registered in
`domain.draws.formats.FORMATS`."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from domain.draws.bracket import IdFactory
from domain.draws.model import Draw, DrawFormat, DrawMatch, DrawPlayer, Options, Placing
from domain.errors import Invalid


@dataclass
class EntrySpec:
    players: list[DrawPlayer]
    seed: int | None = None
    club: str | None = None
    name: str | None = None
    rating: float | None = None


@dataclass
class DrawSpec:
    broadcast_id: str
    name: str
    format: DrawFormat
    entries: list[EntrySpec]
    group_count: int | None = None
    options: Options = field(default_factory=Options)


def refused(field_name: str, message: str) -> Invalid:
    """A draw body's refusal naming its field (`details.json`), as every 400 of the API does."""
    return Invalid(message, details={"json": {field_name: [message]}})


class Format:
    """A format's rules; the defaults are a format without groups that does nothing beyond its links."""

    def default_groups(self, entries: int) -> int | None:
        """The default `groupCount` for this many entries; None when the format has no groups (`groupCount`
        refused)."""
        return None

    def validate(self, spec: DrawSpec, groups: int | None) -> None:
        """Refusals of this format's own options (`groups`: the group count the draw will have)."""

    def build(self, draw: Draw, spec: DrawSpec, rng: random.Random, new_id: IdFactory) -> None:
        """Rounds, draw matches and links of a new draw (entries, options and groups count are the spec's)."""
        raise NotImplementedError

    def advance(self, draw: Draw, dm: DrawMatch, new_id: IdFactory) -> list[DrawMatch]:
        """What a decided draw match changes beyond its links and group standings; the draw matches it made."""
        return []

    def after_withdrawal(self, draw: Draw, new_id: IdFactory) -> list[DrawMatch]:
        """What a withdrawal changes once its walkovers are given; the draw matches it made."""
        return []

    def placings(self, draw: Draw) -> list[Placing]:
        """The places decided so far."""
        raise NotImplementedError
