"""built-in players at two strengths: each bot seat's level, and the level that moves on a missed deadline

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 05:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("bot_level", sa.String(length=8), nullable=False, server_default="easy")
        )
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("deadline_level", sa.String(length=8), nullable=False, server_default="easy")
        )


def downgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("deadline_level")
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("bot_level")
