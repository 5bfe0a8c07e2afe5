"""Accounts, the operator key, developer keys, and turning a bearer credential into a principal."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from domain.access import audit
from domain.access.audit_records import AuditAction, TargetType
from domain.clock import iso
from domain.errors import Conflict, InsufficientScope, Invalid, NotFound, Unauthenticated
from domain.ids import hash_secret, new_id, new_secret, same_secret
from domain.models import SCOPES, Account, Connection, ConnectionKind, Credential, CredentialKind
from domain.ports import UnitOfWork

PARTNER_PREFIXES = ("svc_token_", "svc_test_")
OPERATOR_PREFIX = "svc_op_"
DEVELOPER_KEY_APP = "developer-key"
#: The kind (and appID) of the account's own connection: what the operator creates belongs to it.
HOUSE = ConnectionKind.HOUSE


@dataclass(frozen=True)
class Principal:
    """Who is calling: an operator of the account, or a partner connection with its scopes."""

    account_id: str
    kind: CredentialKind  # operator, access or developer_key
    connection_id: str | None = None
    scopes: frozenset[str] = frozenset()
    expires_on: str | None = None  # when the credential stops working (None: never)
    key_id: str | None = None  # the operator key's ID (`opk_` + the start of its hash): the audit log's actor

    @property
    def is_operator(self) -> bool:
        return self.kind == CredentialKind.OPERATOR

    @property
    def is_developer_key(self) -> bool:
        return self.kind == CredentialKind.DEVELOPER_KEY


def parse_scopes(text: str | None, *, allowed: list[str] | tuple[str, ...] = SCOPES) -> list[str] | None:
    """A space-separated scope string as a list in canonical order; None when absent. Unknown or none is 400."""
    if text is None:
        return None
    wanted = text.split()
    if not wanted:
        raise Invalid("scope names no scope; omit it to get every allowed scope.", code="invalid_scope")
    unknown = sorted(set(wanted) - set(allowed))
    if unknown:
        raise Invalid(f"Unknown or not allowed scope: {' '.join(unknown)}.", code="invalid_scope")
    return [scope for scope in allowed if scope in wanted]


def bootstrap(uow: UnitOfWork, *, operator_key: str, now: datetime) -> Account:
    """Create the default account and register the operator key (by hash), unless it exists already."""
    existing = uow.accounts.find()
    if existing:
        account = existing[0]
    else:
        account = uow.accounts.put(Account(id=new_id("acc"), name="Default account", created_on=iso(now)))
    house_connection(uow, account_id=account.id, now=now)  # also on the first start of an older data dir
    key_hash = hash_secret(operator_key)
    if uow.credentials.get(key_hash) is None:
        uow.credentials.put(
            Credential(
                id=key_hash, kind=CredentialKind.OPERATOR, account_id=account.id, connection_id=None,
                scopes=list(SCOPES), created_on=iso(now), name="operator",
            )
        )
    return account


def house_connection(uow: UnitOfWork, *, account_id: str, now: datetime) -> Connection:
    """The account's house connection (contract §9), created when missing.

    It holds no credential, so no partner call acts as it and it configures no webhook; it cannot be revoked.
    """
    found = uow.connections.find(account_id=account_id, kind=HOUSE)
    if found:
        return found[0]
    return uow.connections.put(Connection(
        id=new_id("conn"), account_id=account_id, app_id=HOUSE, app_name="House (created in the console)",
        kind=HOUSE, scopes=list(SCOPES), approved_on=iso(now),
    ))


def operator_key_id(key_hash: str) -> str:
    """The public ID of an operator key: `opk_` and the first 16 hex digits of its stored hash (which says
    nothing of the key itself)."""
    return f"opk_{key_hash[:16]}"


def new_operator_key() -> str:
    return new_secret("svc_op")


def has_operator_key(uow: UnitOfWork) -> bool:
    """Whether the store already knows an operator key (so a lost key file is not a new data dir)."""
    return bool(uow.credentials.find(kind=CredentialKind.OPERATOR))


def rotate_operator_key(uow: UnitOfWork, *, account_id: str, now: datetime) -> tuple[str, int]:
    """A new operator key; every other operator key of the account (a lost one included) stops working at once.

    Returns the new key (shown once) and how many keys were revoked.
    """
    old = uow.credentials.find(kind=CredentialKind.OPERATOR, account_id=account_id)
    for credential in old:
        uow.credentials.delete(credential.id)
    key = new_operator_key()
    new = uow.credentials.put(Credential(
        id=hash_secret(key), kind=CredentialKind.OPERATOR, account_id=account_id, connection_id=None,
        scopes=list(SCOPES), created_on=iso(now), name="operator",
    ))
    audit.record(uow, account_id=account_id, action=AuditAction.KEY_ROTATED,
                 target=(TargetType.KEY, operator_key_id(new.id)),
                 before={"keyIDs": [operator_key_id(c.id) for c in old]}, after={"keyIDs": [operator_key_id(new.id)]},
                 now=now)
    return key, len(old)


def authenticate(uow: UnitOfWork, *, credential: str | None, operator: bool, now: datetime) -> Principal:
    """Resolve a bearer credential for a partner route (`operator=False`) or an operator route."""
    if not credential:
        raise Unauthenticated("A bearer credential is required.", code="authentication_required")
    accepted = (OPERATOR_PREFIX,) if operator else PARTNER_PREFIXES
    if not credential.startswith(accepted):
        raise Unauthenticated("This credential is not accepted on this route.")
    key_hash = hash_secret(credential)
    stored = uow.credentials.get(key_hash)
    if stored is None or not same_secret(credential, stored.id):
        raise Unauthenticated("The credential is unknown.")
    expected_kind = CredentialKind.OPERATOR if operator else (
        CredentialKind.ACCESS if credential.startswith("svc_token_") else CredentialKind.DEVELOPER_KEY)
    if stored.kind != expected_kind or stored.revoked_on is not None:
        raise Unauthenticated("The credential is revoked or of the wrong kind.")
    if stored.expires_on is not None and stored.expires_on <= iso(now):
        raise Unauthenticated("The credential has expired.")
    if operator:
        return Principal(account_id=stored.account_id, kind=CredentialKind.OPERATOR, scopes=frozenset(SCOPES),
                         expires_on=stored.expires_on, key_id=operator_key_id(stored.id))
    connection = uow.connections.get(stored.connection_id or "")
    if connection is None or connection.revoked_on is not None:
        raise Unauthenticated("The connection of this credential is revoked.")
    return Principal(
        account_id=stored.account_id, kind=stored.kind,
        connection_id=connection.id, scopes=frozenset(stored.scopes), expires_on=stored.expires_on,
    )


def require_scope(principal: Principal, scope: str | None) -> None:
    """403 `insufficient_scope` unless the principal holds `scope` (None: no scope needed)."""
    if scope is not None and not principal.is_operator and scope not in principal.scopes:
        raise InsufficientScope(scope)


@dataclass(frozen=True)
class NewDeveloperKey:
    """A validated `POST /operator/keys` body: an optional name, and its scopes as the request spells them
    (space-separated; all scopes when None), checked by `parse_scopes`."""

    name: str | None = None
    scope: str | None = None


def create_developer_key(
    uow: UnitOfWork, *, account_id: str, name: str | None, scopes: list[str] | None, now: datetime,
    ttl_seconds: int,
) -> tuple[str, Connection]:
    """A developer key is its own connection (`appID: "developer-key"`); the key is shown once."""
    key = new_secret("svc_test")
    expires = iso(now + timedelta(seconds=ttl_seconds))
    granted = list(SCOPES) if scopes is None else scopes
    connection = uow.connections.put(
        Connection(
            id=new_id("conn"), account_id=account_id, app_id=DEVELOPER_KEY_APP, app_name=name or "Developer key",
            kind=ConnectionKind.DEVELOPER_KEY, scopes=granted, approved_on=iso(now), token_expires_on=expires,
        )
    )
    uow.credentials.put(
        Credential(
            id=hash_secret(key), kind=CredentialKind.DEVELOPER_KEY, account_id=account_id, connection_id=connection.id,
            scopes=granted, created_on=iso(now), expires_on=expires, name=name,
        )
    )
    audit.record(uow, account_id=account_id, action=AuditAction.KEY_CREATED,
                 target=(TargetType.CONNECTION, connection.id), after=connection, now=now)
    return key, connection


def connection_info(uow: UnitOfWork, *, principal: Principal) -> dict[str, object]:
    """`GET /connection`: identity, scopes and token expiry of the calling connection."""
    connection = uow.connections.get(principal.connection_id or "")
    if connection is None or connection.revoked_on is not None:
        raise NotFound("No active connection.")
    info: dict[str, object] = {
        "appID": connection.app_id,
        "connectionID": connection.id,
        "scopes": sorted(principal.scopes, key=SCOPES.index),
        "tokenExpiresOn": connection.token_expires_on,
        "approvedOn": connection.approved_on,
    }
    if connection.app_name:
        info["appName"] = connection.app_name
    return info


def revoke_connection(uow: UnitOfWork, *, connection_id: str, account_id: str, now: datetime) -> Connection:
    """Revoke a connection and every credential it holds; the records it created stay with the account."""
    connection = uow.connections.get(connection_id)
    if connection is None or connection.account_id != account_id or connection.revoked_on is not None:
        raise NotFound("No active connection.")
    if connection.kind == HOUSE:
        raise Conflict("The house connection holds what the operator creates; it cannot be revoked.",
                       code="house_connection")
    before = replace(connection)
    connection.revoked_on = iso(now)
    uow.connections.put(connection)
    for credential in uow.credentials.find(connection_id=connection_id):
        if credential.revoked_on is None:
            credential.revoked_on = iso(now)
            uow.credentials.put(credential)
    audit.record(uow, account_id=account_id, action=AuditAction.CONNECTION_REVOKED,
                 target=(TargetType.CONNECTION, connection.id), before=before, after=connection, now=now)
    return connection
