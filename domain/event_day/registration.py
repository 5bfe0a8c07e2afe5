"""Roster self-registration (contract §11, the spec's `selfRegistrationEnabled`): a public sign-up page per
individual roster, `{root}/register/{key}`.

A sign-up adds a player with `source: "self"` to the roster's backing list; partner syncs and patches only ever
touch their own mapped players, so they never remove it (spec rule 2). The page is there only while the flag is
true; setting it back brings the same link back.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain import text
from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.errors import Conflict, Invalid, NotFound
from domain.models import Link, LinkKind, PlayerList, PlayerSource, Roster, RosterType
from domain.names import BLANK_MESSAGE, full_name, is_blank, name_key, stored_name
from domain.partner.player_lists import club_player
from domain.partner.rosters import get_roster
from domain.ports import UnitOfWork
from domain.public import links

KIND = LinkKind.REGISTRATION
PREFIX = "reg"
MAX_SIGN_UPS = 1000
NAME_MAX, OTHER_MAX = 120, 500
REQUIRED = ("firstName", "lastName")


@dataclass(frozen=True)
class SignUp:
    """What a player types on the sign-up form (first and last name required)."""

    first_name: str
    last_name: str
    club_name: str = ""
    country: str = ""
    gender: str = ""


def _individual(roster: Roster) -> Roster:
    if roster.roster_type != RosterType.INDIVIDUAL:
        raise Conflict("Self-registration is available for individual rosters only.", code="roster_not_individual")
    return roster


def registration_link(uow: UnitOfWork, *, account_id: str, roster_id: str, now: datetime) -> Link:
    """The roster's sign-up link, made on first read (it answers only while self-registration is enabled)."""
    _individual(get_roster(uow, account_id=account_id, roster_id=roster_id))
    return links.ensure_link(uow, kind=KIND, prefix=PREFIX, account_id=account_id, target_id=roster_id, now=now)


def rotate_registration_link(uow: UnitOfWork, *, account_id: str, roster_id: str, now: datetime) -> Link:
    """A new sign-up link; the old one answers 404 at once."""
    return links.rotate_link(uow, registration_link(uow, account_id=account_id, roster_id=roster_id, now=now),
                             prefix=PREFIX, now=now)


def _self_players(backing: PlayerList | None) -> list[dict[str, Any]]:
    return [p for p in (backing.players if backing else []) if p.get("source") == PlayerSource.SELF]


def roster_by_key(uow: UnitOfWork, *, key: str) -> tuple[Roster, PlayerList]:
    """The roster a sign-up URL names and its backing list; 404 for an unknown or rotated key, or while the
    roster's `selfRegistrationEnabled` is not true."""
    link = links.link_by_key(uow, key=key, kind=KIND, prefix=PREFIX)
    roster = uow.rosters.get(link.target_id) if link is not None else None
    backing = uow.player_lists.get(roster.player_list_id) if roster is not None else None
    if (roster is None or backing is None or roster.roster_type != RosterType.INDIVIDUAL
            or roster.self_registration_enabled is not True):
        raise NotFound("No such sign-up page.")
    return roster, backing


def _clean(sign_up: SignUp) -> dict[str, str]:
    values = {"firstName": stored_name(sign_up.first_name), "lastName": stored_name(sign_up.last_name),
              "clubName": stored_name(sign_up.club_name), "country": stored_name(sign_up.country),
              "gender": stored_name(sign_up.gender)}
    problems: dict[str, list[str]] = {}
    for name, value in values.items():
        limit = NAME_MAX if name in REQUIRED else OTHER_MAX
        if not text.is_clean(value):
            problems[name] = [text.MESSAGE]
        elif name in REQUIRED and not value:
            problems[name] = ["Required."]
        elif name in REQUIRED and is_blank(value):
            problems[name] = [BLANK_MESSAGE]
        elif len(value) > limit:
            problems[name] = [f"At most {limit} characters."]
    if problems:
        raise Invalid("Please check the highlighted fields.", details={"form": problems})
    return {name: value for name, value in values.items() if value}


def sign_up(uow: UnitOfWork, *, key: str, sign_up: SignUp, now: datetime) -> tuple[Roster, dict[str, Any]]:
    """Add the player to the roster (`source: "self"`): `409 already_registered` for the same first and last name
    (the one name rule, §8a), `409 registration_full` after 1,000 sign-ups."""
    roster, backing = roster_by_key(uow, key=key)
    player = _clean(sign_up)
    same = (name_key(player["firstName"]), name_key(player["lastName"]))
    if any((name_key(str(p.get("firstName", ""))), name_key(str(p.get("lastName", "")))) == same
           for p in backing.players):
        raise Conflict(f"{full_name(player)} is already on this roster.",
                       code="already_registered")
    if len(_self_players(backing)) >= MAX_SIGN_UPS:
        raise Conflict(f"This roster is full ({MAX_SIGN_UPS} sign-ups).", code="registration_full")
    record = club_player(player, PlayerSource.SELF)
    backing.players.append(record)
    backing.updated_on = iso(now)
    uow.player_lists.put(backing)
    audit.record(uow, account_id=roster.account_id, action=AuditAction.ROSTER_SIGNED_UP,
                 target=(TargetType.ROSTER, roster.id), after={"player": record}, now=now)
    return roster, record
