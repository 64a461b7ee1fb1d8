"""when a user's vacation began: back from it, each wait on them goes on from where it stood when they left

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-29 17:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("user_prefs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("vacation_since", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("user_prefs", schema=None) as batch_op:
        batch_op.drop_column("vacation_since")
