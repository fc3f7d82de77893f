"""returns of delivered books: the request per line with reason, photos, steps and the refund

Revision ID: 0023_returns
Revises: 0022_digital
Create Date: 2026-11-25 21:20:59

returns holds one request (status, pickup or self-ship, the refund worked out when asked for, where a
cash-on-delivery refund goes until it is paid out, the payout reference or Razorpay refund id);
return_lines the copies of each order line and the reason; return_photos the private files' keys.
New tables only, so nothing existing is rebuilt.
"""
import sqlalchemy as sa
from alembic import op


# revision identifiers, used by Alembic.
revision = '0023_returns'
down_revision = '0022_digital'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('returns',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=24), nullable=False),
    sa.Column('order_id', sa.Integer(), nullable=False),
    sa.Column('status', sa.String(length=20), nullable=False),
    sa.Column('note', sa.String(length=500), nullable=False),
    sa.Column('method', sa.String(length=10), nullable=True),
    sa.Column('admin_note', sa.String(length=500), nullable=False),
    sa.Column('refund_paise', sa.Integer(), nullable=False),
    sa.Column('shipping_deducted_paise', sa.Integer(), nullable=False),
    sa.Column('refund_route', sa.String(length=10), nullable=False),
    sa.Column('refund_upi', sa.String(length=100), nullable=True),
    sa.Column('refund_account', sa.String(length=20), nullable=True),
    sa.Column('refund_ifsc', sa.String(length=11), nullable=True),
    sa.Column('refund_holder', sa.String(length=100), nullable=True),
    sa.Column('refund_to_masked', sa.String(length=60), nullable=False),
    sa.Column('payout_reference', sa.String(length=60), nullable=True),
    sa.Column('razorpay_refund_id', sa.String(length=40), nullable=True),
    sa.Column('refund_attempts', sa.Integer(), nullable=False),
    sa.Column('refund_error', sa.String(length=300), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('refunded_at', sa.DateTime(timezone=True), nullable=True),
    sa.CheckConstraint("method IS NULL OR method IN ('pickup', 'self_ship')", name=op.f('ck_returns_method')),
    sa.CheckConstraint("refund_route IN ('razorpay', 'upi', 'bank')", name=op.f('ck_returns_refund_route')),
    sa.CheckConstraint("status IN ('requested', 'approved', 'rejected', 'received', 'refund_pending', 'refunded')", name=op.f('ck_returns_status')),
    sa.CheckConstraint('refund_paise >= 0', name=op.f('ck_returns_refund_not_negative')),
    sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_returns_order_id_orders'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_returns')),
    sa.UniqueConstraint('public_id', name=op.f('uq_returns_public_id'))
    )
    with op.batch_alter_table('returns', schema=None) as batch_op:
        batch_op.create_index('ix_returns_order_id', ['order_id'], unique=False)
        batch_op.create_index('ix_returns_status_created', ['status', 'created_at'], unique=False)

    op.create_table('return_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('return_id', sa.Integer(), nullable=False),
    sa.Column('order_line_id', sa.Integer(), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=20), nullable=False),
    sa.Column('resaleable', sa.Boolean(), nullable=True),
    sa.CheckConstraint("reason IN ('damaged', 'defective', 'wrong', 'missing')", name=op.f('ck_return_lines_reason')),
    sa.CheckConstraint('quantity > 0', name=op.f('ck_return_lines_quantity_positive')),
    sa.ForeignKeyConstraint(['order_line_id'], ['order_lines.id'], name=op.f('fk_return_lines_order_line_id_order_lines'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['return_id'], ['returns.id'], name=op.f('fk_return_lines_return_id_returns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_return_lines'))
    )
    with op.batch_alter_table('return_lines', schema=None) as batch_op:
        batch_op.create_index('ix_return_lines_order_line_id', ['order_line_id'], unique=False)
        batch_op.create_index('ix_return_lines_return_id', ['return_id'], unique=False)

    op.create_table('return_photos',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('return_id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['return_id'], ['returns.id'], name=op.f('fk_return_photos_return_id_returns'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_return_photos'))
    )
    with op.batch_alter_table('return_photos', schema=None) as batch_op:
        batch_op.create_index('ix_return_photos_return_id', ['return_id'], unique=False)



def downgrade():
    with op.batch_alter_table('return_photos', schema=None) as batch_op:
        batch_op.drop_index('ix_return_photos_return_id')

    op.drop_table('return_photos')
    with op.batch_alter_table('return_lines', schema=None) as batch_op:
        batch_op.drop_index('ix_return_lines_return_id')
        batch_op.drop_index('ix_return_lines_order_line_id')

    op.drop_table('return_lines')
    with op.batch_alter_table('returns', schema=None) as batch_op:
        batch_op.drop_index('ix_returns_status_created')
        batch_op.drop_index('ix_returns_order_id')

    op.drop_table('returns')
