"""Shop settings: delivery estimates, cash-on-delivery rules and fees an administrator edits

Revision ID: 0007_shop_settings
Revises: 0006_background_jobs
Create Date: 2026-11-24 12:00:00

One row per setting key with a JSON value. No rows are inserted: a key without a row has its
default (decisions §9), so GET requests never need to write one.
"""
import sqlalchemy as sa
from alembic import op

revision = '0007_shop_settings'
down_revision = '0006_background_jobs'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'shop_settings',
        sa.Column('key', sa.String(length=40), nullable=False),
        sa.Column('value', sa.JSON(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('key', name=op.f('pk_shop_settings')),
    )


def downgrade():
    op.drop_table('shop_settings')
