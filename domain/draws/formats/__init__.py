"""The draw formats (contract §13, §22), one module each, registered here: adding a format is its module, its
tests, one line below and its label in the console."""

from __future__ import annotations

from domain.draws.formats.base import Format
from domain.draws.formats.consolation import Consolation
from domain.draws.formats.double_elimination import DoubleElimination
from domain.draws.formats.feed_in import FeedIn
from domain.draws.formats.groups_knockout import GroupsKnockout
from domain.draws.formats.playoff_all import PlayoffAll
from domain.draws.formats.round_robin import RoundRobin
from domain.draws.formats.round_robin_playoff import RoundRobinPlayoff
from domain.draws.formats.single_elimination import SingleElimination
from domain.draws.formats.swiss import Swiss
from domain.draws.model import DrawFormat

FORMATS: dict[DrawFormat, Format] = {
    DrawFormat.ROUND_ROBIN: RoundRobin(),
    DrawFormat.SINGLE_ELIMINATION: SingleElimination(),
    DrawFormat.DOUBLE_ELIMINATION: DoubleElimination(),
    DrawFormat.GROUPS_KNOCKOUT: GroupsKnockout(),
    DrawFormat.SWISS: Swiss(),
    DrawFormat.CONSOLATION: Consolation(),
    DrawFormat.FEED_IN: FeedIn(),
    DrawFormat.PLAYOFF_ALL: PlayoffAll(),
    DrawFormat.ROUND_ROBIN_PLAYOFF: RoundRobinPlayoff(),
}
