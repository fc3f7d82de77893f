"""Background jobs: outbox claims, refunds as a job (payment status refund_pending)

Revision ID: 0006_background_jobs
Revises: 0005_listing_versions
Create Date: 2026-11-24 09:00:00

mail_outbox.claimed_until: a consumer claims a mail before it talks SMTP, so two consumers (or a
job and the sweep) never send one mail twice, and a claim left by a killed consumer runs out.
orders.refund_attempts / refund_error: a cancel records `refund_pending` at once and the refund
job counts its tries, so a refund that keeps failing can be shown to an administrator.
"""
import sqlalchemy as sa
from alembic import op

revision = '0006_background_jobs'
down_revision = '0005_listing_versions'
branch_labels = None
depends_on = None

OLD_STATUSES = "payment_status IN ('pending', 'awaiting', 'paid', 'failed', 'refunded')"
NEW_STATUSES = "payment_status IN ('pending', 'awaiting', 'paid', 'failed', 'refunded', 'refund_pending')"


def upgrade():
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('claimed_until', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('refund_attempts', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('refund_error', sa.String(length=300), nullable=False, server_default=''))
        batch_op.drop_constraint(op.f('ck_orders_payment_status'), type_='check')
        batch_op.create_check_constraint(op.f('ck_orders_payment_status'), sa.text(NEW_STATUSES))
        batch_op.create_index('ix_orders_refund_pending', ['payment_status', 'refund_attempts'], unique=False)


def downgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_index('ix_orders_refund_pending')
        batch_op.drop_constraint(op.f('ck_orders_payment_status'), type_='check')
        batch_op.create_check_constraint(op.f('ck_orders_payment_status'), sa.text(OLD_STATUSES))
        batch_op.drop_column('refund_error')
        batch_op.drop_column('refund_attempts')
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.drop_column('claimed_until')
