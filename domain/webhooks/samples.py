"""Sample events (contract §23): `POST /webhooks/test {"type"}` sends one so that a partner can test a receiver
without a live match, and the OpenAPI document and `docs/webhooks.md` show the same ones as examples.

Each sample's `data` is shaped as the real event's: `{"match": <a complete match read>}` (every field a read can
carry, in the state the event leaves the match in), plus `previous` for `match.result_updated` (the result
before) and `match.reset` (the match read before); a test sends it
with `"test": true` in `data`.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from domain.match import formats
from domain.models import EventType, MatchStatus

#: §21's `match.called` (its sample is ready before its event type is: compared by value)
CALLED = "match.called"
SAMPLE_CONNECTION_ID = "conn_8mJx2Qe4Zr7Tn1Kp"
SAMPLE_EVENT_ID = "5f0c3b7e9a1d2c4e6f8a0b1c3d5e7f9a1b2c3d4e"
SAMPLE_CREATED_ON = "2026-11-28T10:41:07.512Z"

FINAL_GAMES = ({"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 11, "b": 8}, {"a": 11, "b": 6})
_PENDING: dict[str, Any] = {
    "id": "mat_Q2vX8kLm4Rt9Zp1N",
    "externalID": "event-2026-ms-r16-3",
    "scheduledMatchID": "sm_7Hd2Kx9Lq4Wm1Zt6",
    "tableID": "tbl_Vn3Jq8Rx2Lm5Kt7P",
    "status": "pending",
    "participants": {
        "playerA": {"externalID": "p-1001"},
        "playerB": {"externalID": "p-1002"},
    },
    "playerListExternalID": "club-open-2026",
    "isActive": False,
    "isComplete": False,
    "queuePosition": 1,
    "scheduledOn": "2026-11-28T08:15:00.000Z",
    "gameScores": [],
    "score": {"a": 0, "b": 0},
    "scoreVersion": 0,
    "scoring": formats.to_json(formats.PRESETS["table_tennis"]),
    "scoringName": "table_tennis",
    "eventName": "Men's Singles",
    "matchRound": "Round of 16",
    "matchDetails": "Best of five, 11 points",
    "startTime": "2026-11-28T10:30:00.000Z",
    "bestOf": 5,
    "isDoubles": False,
    "playerA": "Ann Lee",
    "playerB": "Bo Kim",
}


def sample_match(event_type: EventType | str) -> dict[str, Any]:
    """A complete match read as the event of `event_type` leaves it (pending, active or completed)."""
    match = copy.deepcopy(_PENDING)
    if str(event_type) == CALLED:  # §21's event: a pending match whose players were called to the court
        match["calledOn"] = "2026-11-28T10:40:00.000Z"
    if str(event_type) in (CALLED, EventType.MATCH_CANCELLED, EventType.MATCH_RESET, EventType.INTEGRATION_TEST):
        return match
    match.update({"status": "active", "isActive": True, "queuePosition": None, "startedOn": "2026-11-28T10:32:04.118Z"})
    if event_type == EventType.MATCH_STARTED:
        match["scoreVersion"] = 1
        return match
    if event_type == EventType.MATCH_SCORE_UPDATED:
        match.update({"gameScores": [{"a": 11, "b": 7}, {"a": 9, "b": 11}, {"a": 4, "b": 2}],
                      "score": {"a": 1, "b": 1}, "scoreVersion": 26})
        return match
    match.update({"status": "completed", "isActive": False, "isComplete": True,
                  "gameScores": [dict(game) for game in FINAL_GAMES],
                  "score": {"a": 3, "b": 1}, "scoreVersion": 41, "winnerSide": "a",
                  "completedOn": "2026-11-28T11:05:52.930Z"})
    if event_type == EventType.MATCH_RESULT_UPDATED:
        match["scoreVersion"] = 42
    return match


def sample_data(event_type: EventType | str, *, test: bool = False) -> dict[str, Any]:
    """The `data` of an event of `event_type` (with `"test": true` when sent by `POST /webhooks/test`)."""
    if event_type == EventType.INTEGRATION_TEST:
        return {"message": "This is a test event from Courtside."}
    match = sample_match(event_type)
    data: dict[str, Any] = {"match": match}
    if event_type == EventType.MATCH_RESULT_UPDATED:  # the desk corrected the last game from 11-6 to 11-9
        previous = [dict(game) for game in FINAL_GAMES]
        match.update({"gameScores": [*previous[:3], {"a": 11, "b": 9}]})
        data["previous"] = {"gameScores": previous, "score": {"a": 3, "b": 1}}
    if event_type == EventType.MATCH_RESET:  # the operator stopped the match at one game all: back to pending
        match["scoreVersion"] = 27
        data["previous"] = sample_match(EventType.MATCH_SCORE_UPDATED)
    if test:
        data["test"] = True
    return data


#: The example's place among its match's events (`data.sequence`; a test event has 0).
SAMPLE_SEQUENCE = {CALLED: 1, EventType.MATCH_STARTED: 2, EventType.MATCH_SCORE_UPDATED: 27,
                   EventType.MATCH_COMPLETED: 42, EventType.MATCH_RESULT_UPDATED: 43, EventType.MATCH_CANCELLED: 2,
                   "match.reset": 28}


def sample_payload(event_type: EventType | str) -> dict[str, Any]:
    """A whole delivery body of `event_type`, as the receiver gets it (the docs' and the document's example):
    `data` with the `sequence` and `occurredOn` every delivery adds (`domain.events.record_event`)."""
    data = sample_data(event_type) | {"sequence": SAMPLE_SEQUENCE.get(str(event_type), 0),
                                      "occurredOn": SAMPLE_CREATED_ON}
    return {"id": SAMPLE_EVENT_ID, "type": str(event_type), "createdOn": SAMPLE_CREATED_ON,
            "connectionID": SAMPLE_CONNECTION_ID, "data": data}


# ------------------------------------------------------------------------------------------------ in a format
#: The rallies a sample is played with: a fixed series (a seeded generator, side A winning 52 % of them), so
#: every format gets a close, real-looking match (tennis: 7-6 after a tiebreak, 3-6, 7-5); a correction's earlier
#: result is another series.
_RALLIES, _CORRECTED, _A_WINS = 24, 15, 0.52


def _played(fmt: formats.Format, series: int, *, until_half: bool = False) -> formats.Score:
    """The score after playing the rallies of `series`: to the end of the match, or half way (a live score)."""
    rally = random.Random(series)  # noqa: S311 - a fixed example, not a secret
    score, rallies = formats.Score(), []
    while formats.winner(fmt, score.items) is None:
        side = "a" if rally.random() < _A_WINS else "b"
        rallies.append(side)
        score = formats.play(fmt, score, side)
    if until_half:
        return formats.replay(fmt, formats.Score(), rallies[:len(rallies) // 2])
    return score


def _scored(match: dict[str, Any], fmt: formats.Format, score: formats.Score) -> None:
    """Put `score` into a sample match read: items, games or sets won, the winner, a live sets game's points."""
    match["gameScores"] = score.game_scores()
    match["score"] = formats.won(fmt, score.items)
    match.pop("currentGame", None)
    if match["status"] == MatchStatus.COMPLETED:
        match["winnerSide"] = formats.winner(fmt, score.items)
    elif match["status"] == MatchStatus.ACTIVE and isinstance(fmt, formats.SetsFormat):
        match["currentGame"] = formats.point_labels(fmt, score)


def _in_format(match: dict[str, Any], fmt: formats.Format, name: str | None) -> dict[str, Any]:
    """A sample match read (table tennis) as the same moment of a match scored by `fmt`."""
    match.update({"scoring": formats.to_json(fmt), "scoringName": name, "bestOf": fmt.best_of,
                  "matchDetails": formats.describe(fmt)})
    if match["status"] == MatchStatus.COMPLETED:
        _scored(match, fmt, _played(fmt, _RALLIES))
    elif match["status"] == MatchStatus.ACTIVE and match["gameScores"]:
        _scored(match, fmt, _played(fmt, _RALLIES, until_half=True))
    else:
        _scored(match, fmt, formats.Score())
    return match


def sample_data_in(event_type: EventType | str, fmt: formats.Format, name: str | None) -> dict[str, Any]:
    """`sample_data(event_type, test=True)` in the scoring format `fmt` (preset key `name`): what
    `POST /webhooks/test {"type"}` sends, in the format of the caller's latest broadcast (contract §23), so a
    tennis partner's handler sees sets, tiebreaks and `currentGame`."""
    data = sample_data(event_type, test=True)
    _in_format(data["match"], fmt, name)
    if event_type == EventType.MATCH_RESULT_UPDATED:
        earlier = _played(fmt, _CORRECTED)
        data["previous"] = {"gameScores": earlier.game_scores(), "score": formats.won(fmt, earlier.items)}
    if event_type == EventType.MATCH_RESET:
        _in_format(data["previous"], fmt, name)
    return data


def sample_of_match(event_type: EventType | str, read: dict[str, Any]) -> dict[str, Any]:
    """The sample of `event_type` built from a real match's read (`POST /webhooks/test {"type", "matchID"}`): the
    read as it is, `previous` shaped as the event's (the result or the read as they are now), `"test": true`."""
    data: dict[str, Any] = {"match": read}
    if event_type == EventType.MATCH_RESULT_UPDATED:
        data["previous"] = {"gameScores": read["gameScores"], "score": read["score"]}
    if event_type == EventType.MATCH_RESET:
        data["previous"] = copy.deepcopy(read)
    data["test"] = True
    return data
