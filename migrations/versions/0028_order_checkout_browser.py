"""orders.checkout_browser: the SHA-256 of the checkout cookie of the browser that placed the order

Revision ID: 0028_order_checkout_browser
Revises: 0027_single_use_download_links
Create Date: 2026-11-27 22:00:00

A guest's unpaid online order is replaced by a new checkout only from the same browser (with the same
e-mail), no longer by anyone who types that e-mail. Orders placed before this migration have none, so no
guest checkout replaces them: their holds expire with their payment window as before.
"""
import sqlalchemy as sa
from alembic import op

revision = '0028_order_checkout_browser'
down_revision = '0027_single_use_download_links'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('checkout_browser', sa.String(length=64), nullable=True))


def downgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_column('checkout_browser')
