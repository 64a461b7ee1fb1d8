"""moves picked in one choice with the move before them: an undo takes back the whole choice, as it was clicked

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28 17:50:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.add_column(sa.Column("chained", sa.Boolean(), nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("moves", schema=None) as batch_op:
        batch_op.drop_column("chained")
