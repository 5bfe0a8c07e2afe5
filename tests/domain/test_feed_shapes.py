"""The public feeds have exactly their declared shapes (issue 36, point 2): the event page's state and a person's
slice (`domain.public.feeds.EventFeed`, `PersonFeed`), the outputs' states (`CourtOutputFeed`,
`VenueOutputFeed`) and the people rows (`domain.event_day.people.PersonRowFeed`), key by key at every level,
built by the services on the in-memory unit of work for an event with every kind of card."""

from __future__ import annotations

import random
import types
import typing
from typing import Any

import pytest

from domain.draws.model import DrawFormat
from domain.draws.read import draw_read
from domain.event_day import people
from domain.event_day.estimates import Estimator
from domain.match import matches as svc
from domain.models import OutputKind
from domain.public import event_page, feeds, outputs, personal
from tests.domain.test_draw_engine import make, play_out
from tests.domain.world import RULES, World


def shape_errors(value: Any, shape: Any, where: str = "$") -> list[str]:
    """Where `value` differs from the TypedDict `shape`: missing or extra keys, at every nested TypedDict (in a
    list, an optional value or a union of TypedDicts, the one whose keys fit best)."""
    if isinstance(value, list):
        return [error for index, item in enumerate(value) for error in shape_errors(item, shape, f"{where}[{index}]")]
    if value is None:
        return []
    if not typing.is_typeddict(shape):
        candidates = [arg for arg in _flatten(shape) if typing.is_typeddict(arg)]
        if not candidates:
            return []
        return min((shape_errors(value, c, where) for c in candidates), key=len)
    if not isinstance(value, dict):
        return [f"{where}: {type(value).__name__}, not an object"]
    required, optional = set(shape.__required_keys__), set(shape.__optional_keys__)
    errors = [f"{where}.{key}: missing" for key in sorted(required - set(value))]
    errors += [f"{where}.{key}: not declared" for key in sorted(set(value) - required - optional)]
    hints = typing.get_type_hints(shape)
    for key in sorted(set(value) & set(hints)):
        errors += shape_errors(value[key], hints[key], f"{where}.{key}")
    return errors


def _flatten(hint: Any) -> list[Any]:
    """The types a hint may hold: the members of a union, the items of a list."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType, list):
        return [inner for arg in typing.get_args(hint) for inner in _flatten(arg)]
    return [hint]


def test_the_checker_finds_missing_extra_and_nested_keys() -> None:
    person = {"personID": "psn_1", "name": "Ann Lee", "club": None}
    assert shape_errors(person, feeds.PagePerson) == []
    assert shape_errors({"personID": "psn_1", "name": "Ann"}, feeds.PagePerson) == ["$.club: missing"]
    assert shape_errors(person | {"id": 1}, feeds.PagePerson) == ["$.id: not declared"]
    waiting = {"matches": [{"court": None}], "more": 0}
    assert "$.matches[0].status: missing" in shape_errors(waiting, feeds.WaitingFeed)


class Event(typing.NamedTuple):
    world: World
    broadcast_id: str


@pytest.fixture(scope="module")
def event() -> Event:
    """An event with a match played, one in play, one called, one queued, one walked over, on two courts."""
    made = World()
    broadcast, (one, two) = made.broadcast("Court 1", "Court 2", default_scoreboard_id="sb_1")
    made.played(one, "done", a="Ann Lee", b="Bo Chen")
    live = made.start(made.sync(one, "live", a="Cy Dunn", b="Di Eve"))
    made.score(live, [{"a": 11, "b": 4}, {"a": 3, "b": 2}])
    called = made.sync(two, "called", a="Ann Lee", b="Ed Fox")
    made.sync(two, "queued", a="Flo Gu", b="Ann Lee")
    walkover = made.sync(two, "walkover", a="Gil Ho", b="Ivy Jo")
    with made.uow() as uow:
        svc.call_match(uow, account_id=made.account_id, match_id=called.id, now=made.now)
        svc.record_walkover(uow, account_id=made.account_id, match_id=walkover.id, winner_side="b",
                            reason=svc.WalkoverReason.NO_SHOW, now=made.now, rules=RULES)
    return Event(made, broadcast.id)


def snapshot(event: Event) -> event_page.Snapshot:
    world = event.world
    with world.uow() as uow:
        broadcast = uow.broadcasts.get(event.broadcast_id)
        assert broadcast is not None
        return event_page.event_snapshot(uow, broadcast, estimator=Estimator(uow, now=world.now,
                                                                               default_minutes=20))


def test_the_event_pages_state_has_its_declared_shape(event: Event) -> None:
    state = snapshot(event).state
    assert shape_errors(state, feeds.EventFeed) == []
    assert [c["label"] for c in state["courts"]] == ["Court 1", "Court 2"]
    assert [c["calledOn"] is not None for c in state["courts"][1]["called"]] == [True]
    assert {r["result"] for r in state["results"]} == {None, "w/o"}


def test_each_persons_slice_has_its_declared_shape_and_their_side(event: Event) -> None:
    found = snapshot(event)
    ann = people.person_id(event.broadcast_id, "Ann Lee")
    slice_ = found.people[ann]
    assert shape_errors(slice_, feeds.PersonFeed) == []
    assert [(c["side"], c["status"]) for c in slice_["upcoming"]] == [("a", "pending"), ("b", "pending")]
    assert slice_["next"] == slice_["upcoming"][0]
    assert [c["side"] for c in slice_["finished"]] == ["a"]
    assert all(shape_errors(p, feeds.PersonFeed) == [] for p in found.people.values())


def test_the_outputs_states_have_their_declared_shapes(event: Event) -> None:
    with event.world.uow() as uow:
        made = outputs.broadcast_outputs(uow, broadcast_id=event.broadcast_id)
        states = outputs.broadcast_output_states(uow, made)
    kinds = sorted(str(state["kind"]) for state in states.values())
    assert kinds == ["court", "court", "venue"]
    for state in states.values():
        shape = feeds.VenueOutputFeed if state["kind"] == OutputKind.VENUE else feeds.CourtOutputFeed
        assert shape_errors(state, shape) == []


def test_the_people_rows_have_their_declared_shape(event: Event) -> None:
    world = event.world
    with world.uow() as uow:
        rows = people.broadcast_people(uow, account_id=world.account_id, broadcast_id=event.broadcast_id,
                                       now=world.now)
    assert shape_errors(rows, people.PersonRowFeed) == []
    assert [r["status"] for r in rows if r["name"] in ("Cy Dunn", "Ed Fox")] == ["playing", "called"]


def test_a_typed_row_serialises_to_its_feed() -> None:
    row = people.PersonRow(person_id="psn_1", name="Ann Lee", club="Harbour", checked_in_on="2026-11-21T10:00:00.000Z",
                           status=people.PersonStatus.FREE, resting_until=None, table_label=None, next_match_id=None)
    assert people.row_json(row) == {
        "personID": "psn_1", "name": "Ann Lee", "club": "Harbour", "checkedIn": True,
        "checkedInOn": "2026-11-21T10:00:00.000Z", "status": "free", "restingUntil": None, "tableLabel": None,
        "nextMatchID": None}
    assert list(people.row_json(row)) == list(people.PersonRowFeed.__annotations__)


def test_a_personal_page_has_its_declared_shape(event: Event) -> None:
    """`/me/{key}/state` (§21): the person, the banner of the match they are called to, their cards (the event
    page's, with `matchID`, `side` and `bestOf`), their reports."""
    world = event.world
    ann = people.person_id(event.broadcast_id, "Ann Lee")
    with world.uow() as uow:
        broadcast = uow.broadcasts.get(event.broadcast_id)
        assert broadcast is not None
        state = personal.personal_state(uow, broadcast, ann, estimator=Estimator(uow, now=world.now,
                                                                                  default_minutes=20),
                                        now=world.now)
    assert shape_errors(state, feeds.PersonalFeed) == []
    assert state["called"] is not None and state["called"]["court"] == "Court 2"
    assert [c["side"] for c in state["next"]] == ["a", "b"] and [c["side"] for c in state["results"]] == ["a"]
    assert all(c["bestOf"] >= 1 and c["matchID"] for c in [*state["next"], *state["results"]])


@pytest.mark.parametrize("fmt", [DrawFormat.ROUND_ROBIN_PLAYOFF, DrawFormat.CONSOLATION, DrawFormat.SWISS])
def test_a_draw_on_the_event_page_has_its_declared_shape(fmt: DrawFormat) -> None:
    draw = make(fmt, 12, random_seed=5, rounds=3 if fmt == DrawFormat.SWISS else 0)
    play_out(draw, random.Random(5))
    shown = event_page.public_draw(draw_read(draw, scoring=None, scoring_name=None), {})
    assert shape_errors(shown, feeds.DrawShown) == []
    assert shown["brackets"] and shown["placings"]
