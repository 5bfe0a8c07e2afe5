"""The storage rules the token endpoint's grants call (domain/access/oauth.py) over the in-memory store: codes,
refresh tokens, scopes of a refresh, token families."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest

from domain.access import oauth
from domain.clock import iso
from domain.errors import Invalid
from domain.ids import hash_secret
from domain.models import AuthorizationCode, Connection, ConnectionKind, Credential, CredentialKind
from storage.memory import MemoryStore
from storage.repository import StoreUnitOfWork, unit_of_work

NOW = datetime(2026, 11, 21, 10, 0, tzinfo=UTC)
LIFETIMES = oauth.TokenLifetimes()


@pytest.fixture
def uow() -> Iterator[StoreUnitOfWork]:
    store = MemoryStore()
    try:
        with unit_of_work(store) as work:
            yield work
    finally:
        store.close()


def stored_code(uow: StoreUnitOfWork, **extra: object) -> AuthorizationCode:
    code = AuthorizationCode(id=hash_secret("svc_code_1"), app_id="app_1", account_id="acc", redirect_uri="https://x/cb",
                             scopes=["matches.read"], expires_on=iso(NOW + timedelta(minutes=10)),
                             created_on=iso(NOW), family_id="fam_1")
    for name, value in extra.items():
        setattr(code, name, value)
    return uow.codes.put(code)


def connection(scopes: list[str]) -> Connection:
    return Connection(id="conn_1", account_id="acc", app_id="app_1", app_name="App", kind=ConnectionKind.OAUTH,
                      scopes=scopes, approved_on=iso(NOW))


def refresh_token(scopes: list[str]) -> Credential:
    return Credential(id="h", kind=CredentialKind.REFRESH, account_id="acc", connection_id="conn_1", scopes=scopes,
                      created_on=iso(NOW), family_id="fam_1")


def test_a_code_is_exchangeable_by_its_app_until_it_expires(uow: StoreUnitOfWork) -> None:
    stored_code(uow)
    assert oauth.code_to_exchange(uow, code="svc_code_1", app_id="app_1", now=NOW).family_id == "fam_1"
    for app_id, now in (("app_2", NOW), ("app_1", NOW + timedelta(minutes=10))):
        with pytest.raises(Invalid) as refused:
            oauth.code_to_exchange(uow, code="svc_code_1", app_id=app_id, now=now)
        assert refused.value.code == "invalid_grant" and not isinstance(refused.value, oauth.Replayed)


def test_a_spent_code_is_a_replay_naming_its_family(uow: StoreUnitOfWork) -> None:
    oauth.spend_code(uow, stored_code(uow), connection_id="conn_1", now=NOW)
    with pytest.raises(oauth.Replayed) as replay:
        oauth.code_to_exchange(uow, code="svc_code_1", app_id="app_1", now=NOW)
    assert (replay.value.code, replay.value.family_id) == ("invalid_grant", "fam_1")


def test_saved_tokens_share_a_family_and_revoking_it_spares_others(uow: StoreUnitOfWork) -> None:
    conn = connection(["matches.read"])
    oauth.save_tokens(uow, connection=conn, access="svc_token_a", refresh="svc_refresh_a", scopes=["matches.read"],
                      family_id="fam_1", now=NOW, lifetimes=LIFETIMES)
    oauth.save_tokens(uow, connection=conn, access="svc_token_b", refresh="svc_refresh_b", scopes=["matches.read"],
                      family_id=None, now=NOW, lifetimes=LIFETIMES)  # an old refresh token without a family
    new_family = {c.family_id for c in uow.credentials.find() if c.id in (hash_secret("svc_token_b"),
                                                                          hash_secret("svc_refresh_b"))}
    assert len(new_family) == 1 and new_family != {"fam_1"}
    oauth.revoke_family(uow, "fam_1", NOW)
    revoked = {c.id for c in uow.credentials.find() if c.revoked_on is not None}
    assert revoked == {hash_secret("svc_token_a"), hash_secret("svc_refresh_a")}
    assert uow.connections.get("conn_1") is not None and conn.token_expires_on == iso(NOW + timedelta(hours=1))


def test_a_spent_refresh_token_is_a_replay(uow: StoreUnitOfWork) -> None:
    conn = connection(["matches.read"])
    oauth.save_tokens(uow, connection=conn, access="svc_token_a", refresh="svc_refresh_a", scopes=["matches.read"],
                      family_id="fam_1", now=NOW, lifetimes=LIFETIMES)
    credential, found = oauth.refresh_to_use(uow, token="svc_refresh_a", app_id="app_1", now=NOW)
    assert found.id == "conn_1"
    with pytest.raises(Invalid, match="not valid"):
        oauth.refresh_to_use(uow, token="svc_refresh_a", app_id="app_2", now=NOW)
    oauth.spend_refresh(uow, credential, now=NOW)
    with pytest.raises(oauth.Replayed):
        oauth.refresh_to_use(uow, token="svc_refresh_a", app_id="app_1", now=NOW)


@pytest.mark.parametrize(
    ("asked", "now_granted", "outcome"),
    [
        (None, ["matches.read", "matches.write"], ["matches.read", "matches.write"]),
        ("matches.read", ["matches.read", "matches.write"], ["matches.read"]),
        (None, ["matches.read", "tables.read"], ["matches.read"]),  # a narrower re-approval caps
        (None, ["tables.read"], "invalid_grant"),
        ("matches.read tables.read", ["matches.read", "tables.read"], "invalid_scope"),  # never wider
        (" ", ["matches.read"], "invalid_scope"),
    ],
)
def test_what_a_refresh_grants(asked: str | None, now_granted: list[str], outcome: list[str] | str) -> None:
    token = refresh_token(["matches.read", "matches.write"])
    if isinstance(outcome, list):
        assert oauth.refreshed_scopes(token, connection(now_granted), asked) == outcome
        return
    with pytest.raises(Invalid) as refused:
        oauth.refreshed_scopes(token, connection(now_granted), asked)
    assert refused.value.code == outcome
