"""kits: books sold together at a kit price; order lines of a kit and the books they took

Revision ID: 0019_kits
Revises: 0018_accounts
Create Date: 2026-11-25 18:03:29

A kit has no stock column: its stock is its scarcest book's (services/kits.py). kit_books holds a kit's
books and copies of each; order_line_books what a kit line took when it was sold, so a cancel gives back
those books even after the kit was edited. order_lines.book_id becomes nullable beside kit_id, with a check
that a line is one or the other (order_lines has no triggers, so SQLite's batch rebuild loses none).
"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '0019_kits'
down_revision = '0018_accounts'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('kits',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=200), nullable=False),
    sa.Column('slug', sa.String(length=220), nullable=False),
    sa.Column('description', sa.Text(), nullable=False),
    sa.Column('price_paise', sa.Integer(), nullable=False),
    sa.Column('archived', sa.Boolean(), nullable=False),
    sa.Column('exam_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint('price_paise > 0', name=op.f('ck_kits_price_positive')),
    sa.ForeignKeyConstraint(['exam_id'], ['exams.id'], name=op.f('fk_kits_exam_id_exams'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_kits')),
    sa.UniqueConstraint('slug', name=op.f('uq_kits_slug'))
    )
    with op.batch_alter_table('kits', schema=None) as batch_op:
        batch_op.create_index('ix_kits_exam_id', ['exam_id'], unique=False)

    op.create_table('kit_books',
    sa.Column('kit_id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.CheckConstraint('quantity > 0', name=op.f('ck_kit_books_quantity_positive')),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_kit_books_book_id_books')),
    sa.ForeignKeyConstraint(['kit_id'], ['kits.id'], name=op.f('fk_kit_books_kit_id_kits'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('kit_id', 'book_id', name=op.f('pk_kit_books'))
    )
    with op.batch_alter_table('kit_books', schema=None) as batch_op:
        batch_op.create_index('ix_kit_books_book_id', ['book_id'], unique=False)

    op.create_table('order_line_books',
    sa.Column('order_line_id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=255), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.CheckConstraint('quantity > 0', name=op.f('ck_order_line_books_quantity_positive')),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_order_line_books_book_id_books')),
    sa.ForeignKeyConstraint(['order_line_id'], ['order_lines.id'], name=op.f('fk_order_line_books_order_line_id_order_lines'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('order_line_id', 'book_id', name=op.f('pk_order_line_books'))
    )
    with op.batch_alter_table('order_line_books', schema=None) as batch_op:
        batch_op.create_index('ix_order_line_books_book_id', ['book_id'], unique=False)

    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.add_column(sa.Column('kit_id', sa.Integer(), nullable=True))
        batch_op.alter_column('book_id',
               existing_type=sa.INTEGER(),
               nullable=True)
        batch_op.create_index('ix_order_lines_kit_id', ['kit_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_order_lines_kit_id_kits'), 'kits', ['kit_id'], ['id'])
        batch_op.create_check_constraint('book_or_kit', '(book_id IS NULL) <> (kit_id IS NULL)')



def downgrade():
    op.execute("DELETE FROM order_lines WHERE kit_id IS NOT NULL")
    with op.batch_alter_table('order_lines', schema=None) as batch_op:
        batch_op.drop_constraint('book_or_kit', type_='check')
        batch_op.drop_constraint(batch_op.f('fk_order_lines_kit_id_kits'), type_='foreignkey')
        batch_op.drop_index('ix_order_lines_kit_id')
        batch_op.alter_column('book_id',
               existing_type=sa.INTEGER(),
               nullable=False)
        batch_op.drop_column('kit_id')

    with op.batch_alter_table('order_line_books', schema=None) as batch_op:
        batch_op.drop_index('ix_order_line_books_book_id')

    op.drop_table('order_line_books')
    with op.batch_alter_table('kit_books', schema=None) as batch_op:
        batch_op.drop_index('ix_kit_books_book_id')

    op.drop_table('kit_books')
    with op.batch_alter_table('kits', schema=None) as batch_op:
        batch_op.drop_index('ix_kits_exam_id')

    op.drop_table('kits')
