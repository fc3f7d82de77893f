"""refunds of RTO parcels and administrators' part refunds; refunds Razorpay refused for good

Revision ID: 0026_order_refunds
Revises: 0025_kit_book_returns
Create Date: 2026-11-27 22:00:00

order_refunds: one row per refund of an order beyond its cancel refund and its returns: a parcel returned to
origin (RTO) of an order otherwise delivered (`shipment_id`, unique) and an administrator's part refund
(amount and reason), with the refund job's attempts, error and Razorpay's refund id.

orders.refund_stopped, returns.refund_stopped: Razorpay refused the refund for a reason that won't change
(400 BAD_REQUEST_ERROR): the job no longer retries it and the dashboard lists it for an administrator.
"""
import sqlalchemy as sa
from alembic import op

revision = '0026_order_refunds'
down_revision = '0025_kit_book_returns'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'order_refunds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('public_id', sa.String(length=24), nullable=False),
        sa.Column('order_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('shipment_id', sa.Integer(), nullable=True),
        sa.Column('amount_paise', sa.Integer(), nullable=False),
        sa.Column('reason', sa.String(length=300), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('created_by', sa.String(length=40), nullable=False),
        sa.Column('payout_reference', sa.String(length=60), nullable=True),
        sa.Column('razorpay_refund_id', sa.String(length=40), nullable=True),
        sa.Column('refund_attempts', sa.Integer(), server_default='0', nullable=False),
        sa.Column('refund_error', sa.String(length=300), server_default='', nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('refunded_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("kind IN ('rto', 'part')", name=op.f('ck_order_refunds_kind')),
        sa.CheckConstraint("status IN ('refund_pending', 'refunded', 'failed', 'not_collected')",
                           name=op.f('ck_order_refunds_status')),
        sa.CheckConstraint('amount_paise > 0', name=op.f('ck_order_refunds_amount_positive')),
        sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_order_refunds_order_id_orders'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['shipment_id'], ['shipments.id'], name=op.f('fk_order_refunds_shipment_id_shipments'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_order_refunds')),
        sa.UniqueConstraint('public_id', name=op.f('uq_order_refunds_public_id')),
        sa.UniqueConstraint('shipment_id', name=op.f('uq_order_refunds_shipment_id')),
    )
    op.create_index('ix_order_refunds_order_id', 'order_refunds', ['order_id'], unique=False)
    op.create_index('ix_order_refunds_status', 'order_refunds', ['status', 'refund_attempts'], unique=False)
    for table in ('orders', 'returns'):
        # A plain ADD COLUMN on both databases: SQLite's batch copy of `orders` would drop and re-create it,
        # and its ON DELETE CASCADE would take the order lines with it.
        op.add_column(table, sa.Column('refund_stopped', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    for table in ('returns', 'orders'):
        op.drop_column(table, 'refund_stopped')
    op.drop_index('ix_order_refunds_status', table_name='order_refunds')
    op.drop_index('ix_order_refunds_order_id', table_name='order_refunds')
    op.drop_table('order_refunds')
