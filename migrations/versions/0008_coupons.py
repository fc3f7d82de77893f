"""Coupons and fees: codes with their rules, one use per order (given back on cancel); an order's discount and COD fee

Revision ID: 0008_coupons
Revises: 0007_shop_settings
Create Date: 2026-11-24 09:30:00

orders.discount_paise and orders.cod_fee_paise take part in the total: total = items + shipping + tax
+ COD fee - discount, and the discount never exceeds the books' price.
"""
import sqlalchemy as sa
from alembic import op

revision = '0008_coupons'
down_revision = '0007_shop_settings'
branch_labels = None
depends_on = None

OLD_TOTAL = "total_paise = items_paise + shipping_paise + tax_paise"
NEW_TOTAL = "total_paise = items_paise + shipping_paise + tax_paise + cod_fee_paise - discount_paise"


def upgrade():
    op.create_table('coupons',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('code', sa.String(length=20), nullable=False),
        sa.Column('kind', sa.String(length=10), nullable=False),
        sa.Column('value', sa.Integer(), nullable=False),
        sa.Column('min_order_paise', sa.Integer(), nullable=False),
        sa.Column('valid_from', sa.DateTime(timezone=True), nullable=True),
        sa.Column('valid_to', sa.DateTime(timezone=True), nullable=True),
        sa.Column('max_uses', sa.Integer(), nullable=True),
        sa.Column('max_uses_per_customer', sa.Integer(), nullable=True),
        sa.Column('category_id', sa.Integer(), nullable=True),
        sa.Column('first_order_only', sa.Boolean(), nullable=False),
        sa.Column('active', sa.Boolean(), nullable=False),
        sa.Column('uses', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("kind IN ('percent', 'flat')", name=op.f('ck_coupons_kind')),
        sa.CheckConstraint('value > 0', name=op.f('ck_coupons_value_positive')),
        sa.CheckConstraint('max_uses IS NULL OR uses <= max_uses', name=op.f('ck_coupons_uses_within_max')),
        sa.CheckConstraint('uses >= 0', name=op.f('ck_coupons_uses_not_negative')),
        sa.ForeignKeyConstraint(['category_id'], ['categories.id'], name=op.f('fk_coupons_category_id_categories'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_coupons')),
        sa.UniqueConstraint('code', name=op.f('uq_coupons_code')),
    )
    op.create_table('coupon_uses',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('coupon_id', sa.Integer(), nullable=False),
        sa.Column('order_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=True),
        sa.Column('email', sa.String(length=254), nullable=False),
        sa.Column('phone', sa.String(length=20), nullable=False),
        sa.Column('discount_paise', sa.Integer(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('released_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['coupon_id'], ['coupons.id'], name=op.f('fk_coupon_uses_coupon_id_coupons'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['order_id'], ['orders.id'], name=op.f('fk_coupon_uses_order_id_orders'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_coupon_uses_user_id_users'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_coupon_uses')),
        sa.UniqueConstraint('order_id', name=op.f('uq_coupon_uses_order_id')),
    )
    with op.batch_alter_table('coupon_uses', schema=None) as batch_op:
        batch_op.create_index('ix_coupon_uses_coupon_email', ['coupon_id', 'email'], unique=False)
        batch_op.create_index('ix_coupon_uses_coupon_phone', ['coupon_id', 'phone'], unique=False)
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.add_column(sa.Column('discount_paise', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('coupon_code', sa.String(length=20), nullable=True))
        batch_op.add_column(sa.Column('cod_fee_paise', sa.Integer(), nullable=False, server_default='0'))
        batch_op.drop_constraint(op.f('ck_orders_total_adds_up'), type_='check')
        batch_op.create_check_constraint(op.f('ck_orders_total_adds_up'), sa.text(NEW_TOTAL))
        batch_op.create_check_constraint(op.f('ck_orders_discount_within_items'),
                                         sa.text('discount_paise >= 0 AND discount_paise <= items_paise'))


def downgrade():
    with op.batch_alter_table('orders', schema=None) as batch_op:
        batch_op.drop_constraint(op.f('ck_orders_discount_within_items'), type_='check')
        batch_op.drop_constraint(op.f('ck_orders_total_adds_up'), type_='check')
        batch_op.create_check_constraint(op.f('ck_orders_total_adds_up'), sa.text(OLD_TOTAL))
        batch_op.drop_column('cod_fee_paise')
        batch_op.drop_column('coupon_code')
        batch_op.drop_column('discount_paise')
    with op.batch_alter_table('coupon_uses', schema=None) as batch_op:
        batch_op.drop_index('ix_coupon_uses_coupon_phone')
        batch_op.drop_index('ix_coupon_uses_coupon_email')
    op.drop_table('coupon_uses')
    op.drop_table('coupons')
