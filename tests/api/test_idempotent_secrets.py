"""Idempotent creates that show a secret once (contract §23, issue 47): the answer remembered for a repeated
`Idempotency-Key` keeps no live credential. A developer key or an app's client secret is never in the store in
plain text (TinyDB's files, PostgreSQL's rows); a replay answers the first answer with the secret as null."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from domain.settings import Settings
from tests.conftest import Api


def raw_store(settings: Settings) -> bytes:
    """Everything the store holds, as stored: every file of the data dir, or every row of every table."""
    if settings.database_url is None:
        return b"".join(path.read_bytes() for path in sorted(Path(settings.data_dir).rglob("*")) if path.is_file())
    with psycopg.connect(settings.database_url, autocommit=True) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")]
        rows = [conn.execute(sql.SQL("SELECT coalesce(string_agg(t::text, ''), '') FROM {} t").format(
            sql.Identifier(table))).fetchone() for table in tables]
    return "".join(str(row[0]) for row in rows if row is not None).encode()


@pytest.mark.parametrize(("path", "body", "secret"), [
    ("/operator/keys", {"name": "Test bench"}, "key"),
    ("/operator/apps", {"name": "Club app", "redirectURIs": ["https://club.example/callback"]}, "clientSecret"),
])
def test_a_secret_shown_once_is_never_kept_in_the_store_of_answers(
        operator: Api, settings: Settings, path: str, body: dict[str, object], secret: str) -> None:
    headers = {"Idempotency-Key": "create-once-0001"}
    first = operator.post(path, json=body, headers=headers)
    assert first.status_code == 201, first.json
    shown = first.json["data"][secret]
    assert isinstance(shown, str) and len(shown) > 16
    assert shown.encode() not in raw_store(settings)
    again = operator.post(path, json=body, headers=headers)
    assert again.status_code == 201, again.json
    assert again.json["data"] == first.json["data"] | {secret: None}  # the same create, without its secret
    assert shown.encode() not in raw_store(settings)
