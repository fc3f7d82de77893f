"""where an order was placed from: the client's IP (and, indexed, the checkout browser of 0028), to cap the copies unpaid
orders hold per IP and per browser; until when a large cash order waits for the shop's confirmation (product §5.7)

Revision ID: 0030_order_placed_from
Revises: 0029_pending_email_and_caps
Create Date: 2026-11-27 22:00:00

orders: `placed_ip` (the client's address as the app sees it behind PROXY_COUNT proxies), NULL for orders
placed before this migration; it and `checkout_browser` (the digest of the browser's `checkout` cookie) are
each indexed with the status the cap reads. `confirm_by`: a cash-on-delivery order of many copies is
cancelled by the expiry job unless the shop confirms it (moves it to processing) before then; NULL for others.
"""
import sqlalchemy as sa
from alembic import op

revision = '0030_order_placed_from'
down_revision = '0029_pending_email_and_caps'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('placed_ip', sa.String(length=45), nullable=True))
        batch_op.add_column(sa.Column('confirm_by', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index('ix_orders_placed_ip', ['placed_ip', 'status'], unique=False)
        batch_op.create_index('ix_orders_checkout_browser', ['checkout_browser', 'status'], unique=False)


def downgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index('ix_orders_checkout_browser')
        batch_op.drop_index('ix_orders_placed_ip')
        batch_op.drop_column('confirm_by')
        batch_op.drop_column('placed_ip')
