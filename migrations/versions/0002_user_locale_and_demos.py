"""users' last seen language; bots-only demo games

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("user_prefs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("locale", sa.String(length=8), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("demo_move_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("demo_move_at")
    with op.batch_alter_table("user_prefs", schema=None) as batch_op:
        batch_op.drop_column("locale")
