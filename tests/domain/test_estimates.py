"""Estimates (contract §9): typical duration from history, the active match's expected end, queued starts,
and when a court needs attention. Pure functions over records and times."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from domain.clock import iso
from domain.event_day.estimates import court_times, pool_starts, typical_duration
from domain.models import Attention, Match, MatchStatus

NOW = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
DEFAULT = timedelta(minutes=20)


def match(match_id: str, *, started: datetime | None = None, minutes: float | None = None) -> Match:
    return Match(
        id=match_id, scheduled_match_id="sm", account_id="acc", connection_id="con", external_id=match_id,
        table_id="tab", player_list_external_id="pl",
        status=MatchStatus.COMPLETED if minutes is not None else MatchStatus.PENDING,
        queue_order=0, scheduled_on=iso(NOW), created_on=iso(NOW), updated_on=iso(NOW),
        started_on=iso(started) if started else None,
        completed_on=iso(started + timedelta(minutes=minutes)) if started and minutes is not None else None,
    )


def history(*minutes: float) -> list[Match]:
    """Completed matches, one an hour back from NOW, oldest first, of these durations."""
    count = len(minutes)
    return [match(f"done{i}", started=NOW - timedelta(hours=count - i), minutes=m) for i, m in enumerate(minutes)]


def test_no_history_is_the_default_duration() -> None:
    assert typical_duration([], default=DEFAULT) == DEFAULT
    assert typical_duration([match("pending")], default=DEFAULT) == DEFAULT  # never started: no duration


def test_some_history_is_the_median_duration() -> None:
    assert typical_duration(history(10, 30, 14), default=DEFAULT) == timedelta(minutes=14)
    assert typical_duration(history(10, 12, 14, 40), default=DEFAULT) == timedelta(minutes=13)


def test_durations_under_3_minutes_are_left_out_of_the_typical_duration() -> None:
    typed_in_after = history(0, 10, 0.5, 2.9, 30, 14)
    assert typical_duration(typed_in_after, default=DEFAULT) == timedelta(minutes=14)
    assert typical_duration(history(3, 3, 3), default=DEFAULT) == timedelta(minutes=3)  # 3 minutes is real


def test_fewer_than_3_real_durations_is_the_default() -> None:
    assert typical_duration(history(50), default=DEFAULT) == DEFAULT
    assert typical_duration(history(50, 40), default=DEFAULT) == DEFAULT
    assert typical_duration(history(50, 40, 0, 1, 2), default=DEFAULT) == DEFAULT
    assert typical_duration(history(50, 40, 45), default=DEFAULT) == timedelta(minutes=45)


def test_the_last_20_are_counted_among_real_durations_only() -> None:
    assert typical_duration(history(*([12] * 20), *([0] * 30)), default=DEFAULT) == timedelta(minutes=12)


def test_only_the_last_20_completed_matches_count() -> None:
    old_and_long = [60.0] * 25
    recent = [12.0] * 20
    assert typical_duration(history(*old_and_long, *recent), default=DEFAULT) == timedelta(minutes=12)
    shuffled = list(reversed(history(*old_and_long, *recent)))  # by completedOn, not by the order given
    assert typical_duration(shuffled, default=DEFAULT) == timedelta(minutes=12)


def test_free_court_starts_its_queue_now_one_typical_duration_apart_and_asks_for_attention() -> None:
    queue = [match("q1"), match("q2"), match("q3")]
    times = court_times(active=None, queue=queue, typical=DEFAULT, now=NOW)
    assert times.expected_end is None
    assert times.starts == {"q1": NOW, "q2": NOW + DEFAULT, "q3": NOW + 2 * DEFAULT}
    assert times.attention is Attention.WAITING


def test_free_court_with_an_empty_queue_needs_nothing() -> None:
    times = court_times(active=None, queue=[], typical=DEFAULT, now=NOW)
    assert times.starts == {} and times.attention is None and times.expected_end is None


def test_active_match_ends_at_start_plus_typical_and_the_queue_follows_it() -> None:
    active = match("live", started=NOW - timedelta(minutes=5))
    times = court_times(active=active, queue=[match("q1"), match("q2")], typical=DEFAULT, now=NOW)
    assert times.expected_end == NOW + timedelta(minutes=15)
    assert times.starts == {"q1": NOW + timedelta(minutes=15), "q2": NOW + timedelta(minutes=35)}
    assert times.attention is None


def test_a_match_running_over_its_typical_duration_ends_now() -> None:
    active = match("live", started=NOW - timedelta(minutes=25))
    times = court_times(active=active, queue=[match("q1")], typical=DEFAULT, now=NOW)
    assert times.expected_end == NOW and times.starts == {"q1": NOW}
    assert times.attention is None  # 25 min is not yet over 1.5 x 20


def test_overdue_active_match_past_one_and_a_half_typical_durations() -> None:
    exactly = court_times(active=match("live", started=NOW - timedelta(minutes=30)), queue=[], typical=DEFAULT,
                          now=NOW)
    assert exactly.attention is None
    over = court_times(active=match("live", started=NOW - timedelta(minutes=30, seconds=1)), queue=[],
                       typical=DEFAULT, now=NOW)
    assert over.attention is Attention.OVERDUE and over.expected_end == NOW


def test_a_pool_match_waiting_for_its_earlier_round_is_not_expected_before_that_round_ends() -> None:
    """Issue 51: My matches showed round 2 "Expected 13:25" before round 1 at 17:20; start-next holds a draw's
    round r until round r - 1 is complete, and the estimate follows it."""
    first, second = match("r1"), match("r2")
    late = NOW + timedelta(hours=7)
    starts = pool_starts(courts_free={"c1": NOW, "c2": NOW}, pool=[first, second], typical=DEFAULT, now=NOW,
                         planned_for=lambda m: late if m.id == "r1" else None, waits_for={"r2": ["r1"]})
    assert starts == {"r1": late, "r2": late + DEFAULT}
    alone = pool_starts(courts_free={"c1": NOW, "c2": NOW}, pool=[first, second], typical=DEFAULT, now=NOW,
                        planned_for=lambda m: late if m.id == "r1" else None)
    assert alone["r2"] == NOW
