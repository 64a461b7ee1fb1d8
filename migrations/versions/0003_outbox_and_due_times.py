"""publishing outbox (what Discord shows of each game) and stored due times for the clock

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24 04:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("acting", sa.JSON(), nullable=False, server_default="{}"))
        batch_op.add_column(sa.Column("notes", sa.JSON(), nullable=False, server_default="[]"))
        batch_op.add_column(sa.Column("shown_version", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("shown_acting", sa.JSON(), nullable=False, server_default="{}"))
        batch_op.add_column(sa.Column("publish_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("publish_attempts", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("publish_problem", sa.String(length=60), nullable=True))
        batch_op.add_column(sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_games_publish_at", ["publish_at"])
        batch_op.create_index("ix_games_due_at", ["due_at"])
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("dm_channel_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("dm_message_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("dm_view", sa.String(length=32), nullable=True))
    with op.batch_alter_table("user_prefs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("pings", sa.String(length=8), nullable=False, server_default="all"))
    # Games that were running before this revision: show them once more and let the clock look at them.
    op.execute("UPDATE games SET shown_version = version")
    op.execute("UPDATE games SET due_at = updated_at WHERE status IN ('lobby', 'active')")


def downgrade() -> None:
    with op.batch_alter_table("user_prefs", schema=None) as batch_op:
        batch_op.drop_column("pings")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("dm_view")
        batch_op.drop_column("dm_message_id")
        batch_op.drop_column("dm_channel_id")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_due_at")
        batch_op.drop_index("ix_games_publish_at")
        for column in (
            "due_at",
            "publish_problem",
            "publish_attempts",
            "publish_at",
            "shown_acting",
            "shown_version",
            "notes",
            "acting",
        ):
            batch_op.drop_column(column)
