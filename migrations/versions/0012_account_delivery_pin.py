"""users.delivery_pin: the account's delivery PIN

Revision ID: 0012_account_delivery_pin
Revises: 0011_promised_delivery
Create Date: 2026-11-25 15:00:28

The PIN a signed-in shopper last checked on a book page, set in the profile or ordered to, so the book
page and checkout start from it on any device. Empty until the shopper gives one.
"""
import sqlalchemy as sa
from alembic import op

revision = '0012_account_delivery_pin'
down_revision = '0011_promised_delivery'
branch_labels = None
depends_on = None


def upgrade():
    # A nullable column: SQLite adds it in place (batch mode does not rebuild the table for this).
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('delivery_pin', sa.String(length=6), nullable=True))


def downgrade():
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('delivery_pin')
