"""digital books: a book's file in private storage, digital order lines and their downloads

Revision ID: 0022_digital
Revises: 0021_one_shop_address
Create Date: 2026-11-25 21:40:00

books.file_key/file_type/file_size/file_name name an e-book's or audiobook's file in private storage
(product §7.11). order_lines.digital marks a line delivered as downloads and order_lines.downloads counts
them; orders.downloads_until is when its links stop working (set when the order is paid).
"""
import sqlalchemy as sa
from alembic import op


revision = '0022_digital'
down_revision = '0021_one_shop_address'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ALTER TABLE ADD COLUMN (no batch rebuild): a rebuild of books on SQLite would drop its search and
    # count triggers.
    op.add_column('books', sa.Column('file_key', sa.String(length=255), nullable=True))
    op.add_column('books', sa.Column('file_type', sa.String(length=60), nullable=True))
    op.add_column('books', sa.Column('file_size', sa.BigInteger(), nullable=True))
    op.add_column('books', sa.Column('file_name', sa.String(length=255), nullable=True))
    op.add_column('order_lines', sa.Column('digital', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('order_lines', sa.Column('downloads', sa.Integer(), server_default='0', nullable=False))
    op.add_column('orders', sa.Column('downloads_until', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    op.drop_column('orders', 'downloads_until')
    op.drop_column('order_lines', 'downloads')
    op.drop_column('order_lines', 'digital')
    for column in ('file_name', 'file_size', 'file_type', 'file_key'):
        op.drop_column('books', column)
