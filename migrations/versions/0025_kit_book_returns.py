"""returns of books bought in a kit: each kit book's price and format when sold; a return line names the kit's book

Revision ID: 0025_kit_book_returns
Revises: 0024_booking_and_old_bills
Create Date: 2026-11-26 00:30:00

order_line_books: `unit_price_paise` (the book's own sale price when the kit was sold: the weight of its share
of the kit price in a refund, product §7.10) and `digital` (an e-book or audiobook in the kit: not returned).
Kit lines sold before this migration get the books' sale prices and formats as they are on the day it runs
(nothing older was recorded); from then on checkout records them.

return_lines: `book_id`, NULL for a book's own line, else the kit's book returned, with a composite foreign
key to order_line_books (a kit line's return names a book that kit line held).
"""
import sqlalchemy as sa
from alembic import op

revision = '0025_kit_book_returns'
down_revision = '0024_booking_and_old_bills'
branch_labels = None
depends_on = None

DIGITAL_FORMATS = ("E-Book", "Audiobook")


def upgrade():
    with op.batch_alter_table('order_line_books', schema=None) as batch_op:
        batch_op.add_column(sa.Column('unit_price_paise', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('digital', sa.Boolean(), server_default=sa.false(), nullable=False))
    formats = ", ".join(f"'{name}'" for name in DIGITAL_FORMATS)
    op.execute(
        "UPDATE order_line_books SET "
        "unit_price_paise = (SELECT COALESCE(books.discounted_price_paise, books.price_paise) FROM books "
        "WHERE books.id = order_line_books.book_id), "
        f"digital = (SELECT books.format IN ({formats}) FROM books WHERE books.id = order_line_books.book_id)")

    with op.batch_alter_table('return_lines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('book_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_return_lines_order_line_id_order_line_books'), 'order_line_books',
                                    ['order_line_id', 'book_id'], ['order_line_id', 'book_id'], ondelete='CASCADE')


def downgrade():
    with op.batch_alter_table('return_lines', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_return_lines_order_line_id_order_line_books'), type_='foreignkey')
        batch_op.drop_column('book_id')
    with op.batch_alter_table('order_line_books', schema=None) as batch_op:
        batch_op.drop_column('digital')
        batch_op.drop_column('unit_price_paise')
