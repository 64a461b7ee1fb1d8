"""`python -m bot.db.upgrade`: bring the database at DATABASE_URL up to the newest schema (what `migrate` runs in a
process of its own, so Alembic never loads into the bot's)."""

from __future__ import annotations

import os

from alembic import command
from alembic.config import Config

from bot.db import ROOT


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url: str) -> None:
    command.upgrade(alembic_config(url), "head")


if __name__ == "__main__":
    upgrade(os.environ["DATABASE_URL"])
