"""single-use download links: the newest counted link of a digital order line that was opened

Revision ID: 0027_single_use_download_links
Revises: 0026_order_refunds
Create Date: 2026-11-27 21:40:00

order_lines: `links_opened`, the number of the newest of the line's counted download links that handed over
its file (product §7.11): a link opens once, and opening it spends the line's older links not yet opened.
"""
import sqlalchemy as sa
from alembic import op

revision = '0027_single_use_download_links'
down_revision = '0026_order_refunds'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('links_opened', sa.Integer(), server_default='0', nullable=False))


def downgrade():
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.drop_column('links_opened')
