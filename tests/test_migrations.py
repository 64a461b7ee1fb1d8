"""Alembic revisions run both ways on SQLite: every revision upgrades and downgrades step by step, each
downgrade gives back exactly the schema of the revision below, and head matches the models.

The revisions are read from migrations/, so revisions added later are covered without changing this test."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect

from bot.db.models import Base
from bot.db.upgrade import alembic_config


def schema(url: str) -> dict[str, Any]:
    """Tables with their columns, indexes, unique constraints and foreign keys, as SQLite reports them."""
    engine = create_engine(url)
    try:
        found = inspect(engine)
        return {
            table: {
                "columns": [
                    (c["name"], str(c["type"]), c["nullable"], c.get("default"))
                    for c in found.get_columns(table)
                ],
                "primary_key": found.get_pk_constraint(table)["constrained_columns"],
                "indexes": sorted(
                    (i["name"], tuple(i["column_names"]), bool(i["unique"])) for i in found.get_indexes(table)
                ),
                "unique": sorted(tuple(u["column_names"]) for u in found.get_unique_constraints(table)),
                "foreign_keys": sorted(
                    (tuple(f["constrained_columns"]), f["referred_table"], tuple(f["referred_columns"]))
                    for f in found.get_foreign_keys(table)
                ),
            }
            for table in sorted(found.get_table_names())
            if table != "alembic_version"
        }
    finally:
        engine.dispose()


def differences_from_models(url: str) -> list[Any]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return compare_metadata(MigrationContext.configure(connection), Base.metadata)
    finally:
        engine.dispose()


@pytest.fixture
def database(tmp_path):
    path = tmp_path / "migrations.db"
    return alembic_config(f"sqlite+aiosqlite:///{path}"), f"sqlite:///{path}"


def test_every_revision_goes_down_and_up_again(database):
    config, url = database
    revisions = [r.revision for r in ScriptDirectory.from_config(config).walk_revisions()][::-1]
    assert len(revisions) >= 2
    schemas = {None: schema(url)}
    assert schemas[None] == {}
    for revision in revisions:  # up one at a time, noting each schema
        command.upgrade(config, revision)
        schemas[revision] = schema(url)
        assert schemas[revision] != {}
    assert differences_from_models(url) == []
    below = [None, *revisions[:-1]]
    for revision, previous in zip(revisions[::-1], below[::-1], strict=True):  # down one at a time
        command.downgrade(config, previous or "base")
        assert schema(url) == schemas[previous], (
            f"downgrading {revision} did not restore {previous or 'base'}"
        )
    command.upgrade(config, "head")
    assert schema(url) == schemas[revisions[-1]]
    assert differences_from_models(url) == []
