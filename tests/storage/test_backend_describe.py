"""The startup line says where the data lives, and never a database password."""

from __future__ import annotations

from pathlib import Path

from domain.settings import Settings
from storage.backend import describe


def test_describe_names_the_data_dir_without_a_database(tmp_path: Path) -> None:
    assert describe(Settings(data_dir=tmp_path)) == f"data dir {tmp_path.resolve()}"


def test_describe_names_the_database_without_its_password(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path,
                        database_url="postgresql://courtside:s3cret-pw@db.example:5433/courtside?sslmode=require")
    assert describe(settings) == "database postgresql://courtside@db.example:5433/courtside"
