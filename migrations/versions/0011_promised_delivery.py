"""orders.promised_from / promised_to: the delivery dates the shop promised when the order was placed

Revision ID: 0011_promised_delivery
Revises: 0010_filter_versions
Create Date: 2026-11-25 00:15:00

The estimate for the order's PIN at the moment it was placed (services/delivery.estimate), kept on
the order so the success page, the order pages and the e-mails say the same dates later, whatever the
admin changes in the delivery rules meanwhile. Empty for orders placed before and for PINs the
directory does not know.
"""
import sqlalchemy as sa
from alembic import op

revision = '0011_promised_delivery'
down_revision = '0010_filter_versions'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('orders', sa.Column('promised_from', sa.Date(), nullable=True))
    op.add_column('orders', sa.Column('promised_to', sa.Date(), nullable=True))


def downgrade():
    with op.batch_alter_table('orders') as batch_op:
        batch_op.drop_column('promised_to')
        batch_op.drop_column('promised_from')
