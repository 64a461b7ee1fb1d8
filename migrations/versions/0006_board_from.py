"""a board message tells every public happening since the board before it: the version that one last showed

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26 17:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("board_from", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_column("board_from")
