"""each move keeps the state after it, and each game its first state: undo restores what was stored

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 05:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.add_column(sa.Column("state_after", sa.Text(), nullable=True))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("first_state", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("first_state")
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_column("state_after")
