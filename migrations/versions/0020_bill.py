"""bill of supply: serial numbers per financial year, the buyer's GSTIN, the bill attached to a mail

Revision ID: 0020_bill
Revises: 0019_kits
Create Date: 2026-11-25 18:20:00

orders.bill_number (unique, at most 16 characters) and billed_at are set once, when an order is first
paid or delivered, from bill_counters (one row per financial year, "2026-27", bumped by an UPDATE in
the same transaction). orders.buyer_gstin is the optional GSTIN given at checkout. mail_outbox.bill_order_id
names the order whose bill goes with the mail as a PDF. orders and mail_outbox carry no triggers, so
SQLite's batch rebuild loses nothing.
"""
import sqlalchemy as sa
from alembic import op


revision = '0020_bill'
down_revision = '0019_kits'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('bill_counters',
    sa.Column('financial_year', sa.String(length=7), nullable=False),
    sa.Column('last_number', sa.Integer(), nullable=False),
    sa.PrimaryKeyConstraint('financial_year', name=op.f('pk_bill_counters'))
    )
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('buyer_gstin', sa.String(length=15), nullable=True))
        batch_op.add_column(sa.Column('bill_number', sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column('billed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.create_unique_constraint(batch_op.f('uq_orders_bill_number'), ['bill_number'])
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('bill_order_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_mail_outbox_bill_order_id_orders'), 'orders', ['bill_order_id'],
                                    ['id'], ondelete='SET NULL')


def downgrade():
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_mail_outbox_bill_order_id_orders'), type_='foreignkey')
        batch_op.drop_column('bill_order_id')
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_orders_bill_number'), type_='unique')
        batch_op.drop_column('billed_at')
        batch_op.drop_column('bill_number')
        batch_op.drop_column('buyer_gstin')
    op.drop_table('bill_counters')
