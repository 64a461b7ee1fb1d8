"""who held a seat before: past moves are told under the name of whoever made them, and only a seat a person left
can be taken by a newcomer

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28 15:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("holders", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("holders")
