"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22 04:03:50.036790
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("engine", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=True),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("lobby_message_id", sa.BigInteger(), nullable=True),
        sa.Column("board_message_id", sa.BigInteger(), nullable=True),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("state", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("waiting_since", sa.DateTime(timezone=True), nullable=True),
        sa.Column("remind_after_hours", sa.Float(), nullable=True),
        sa.Column("remind_every_hours", sa.Float(), nullable=True),
        sa.Column("remind_max", sa.Integer(), nullable=True),
        sa.Column("deadline_hours", sa.Float(), nullable=True),
        sa.Column("undo_request", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_channel_id"), ["channel_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_guild_id"), ["guild_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_thread_id"), ["thread_id"], unique=False)

    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("locale", sa.String(length=8), nullable=True),
        sa.Column("use_threads", sa.Boolean(), nullable=False),
        sa.Column("host_role_id", sa.BigInteger(), nullable=True),
        sa.Column("game_channel_ids", sa.JSON(), nullable=False),
        sa.Column("remind_after_hours", sa.Float(), nullable=False),
        sa.Column("remind_every_hours", sa.Float(), nullable=False),
        sa.Column("remind_max", sa.Integer(), nullable=False),
        sa.Column("deadline_hours", sa.Float(), nullable=True),
        sa.Column("idle_archive_days", sa.Float(), nullable=False),
        sa.Column("lobby_expiry_hours", sa.Float(), nullable=False),
        sa.Column("reaction_window_minutes", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )
    op.create_table(
        "user_prefs",
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("vacation", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("user_id"),
    )
    op.create_table(
        "moves",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "version"),
    )
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_moves_game_id"), ["game_id"], unique=False)

    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("display_name", sa.String(length=100), nullable=False),
        sa.Column("dms_closed", sa.Boolean(), nullable=False),
        sa.Column("pings", sa.Boolean(), nullable=False),
        sa.Column("reminders_sent", sa.Integer(), nullable=False),
        sa.Column("kick_votes", sa.JSON(), nullable=False),
        sa.Column("final_score", sa.Float(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat"),
        sa.UniqueConstraint("game_id", "user_id"),
    )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_seats_game_id"), ["game_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_seats_user_id"), ["user_id"], unique=False)

    op.create_table(
        "spectators",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "user_id"),
    )
    with op.batch_alter_table("spectators", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_spectators_game_id"), ["game_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("spectators", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_spectators_game_id"))

    op.drop_table("spectators")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_seats_user_id"))
        batch_op.drop_index(batch_op.f("ix_seats_game_id"))

    op.drop_table("seats")
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_moves_game_id"))

    op.drop_table("moves")
    op.drop_table("user_prefs")
    op.drop_table("guild_settings")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_games_thread_id"))
        batch_op.drop_index(batch_op.f("ix_games_status"))
        batch_op.drop_index(batch_op.f("ix_games_guild_id"))
        batch_op.drop_index(batch_op.f("ix_games_channel_id"))

    op.drop_table("games")
