"""the stock ledger: one row per change of a book's stock (product §5.9)

Revision ID: 0031_stock_ledger
Revises: 0030_order_placed_from
Create Date: 2026-11-27 23:00:00

stock_movements: book, kind, signed quantity, stock after, who and what caused it (order, return, parcel,
import, an administrator's reason). Each existing book's ledger opens with one `opening` row of its current
stock, written by one INSERT ... SELECT, so `flask check-stock` holds from the start.
"""
import sqlalchemy as sa
from alembic import op

revision = '0031_stock_ledger'
down_revision = '0030_order_placed_from'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'stock_movements',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('book_id', sa.Integer(), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('quantity', sa.Integer(), nullable=False),
        sa.Column('stock_after', sa.Integer(), nullable=False),
        sa.Column('actor', sa.String(length=40), nullable=False),
        sa.Column('actor_id', sa.Integer(), nullable=True),
        sa.Column('order_id', sa.Integer(), nullable=True),
        sa.Column('return_id', sa.Integer(), nullable=True),
        sa.Column('shipment_id', sa.Integer(), nullable=True),
        sa.Column('import_id', sa.String(length=64), nullable=True),
        sa.Column('reason', sa.String(length=30), nullable=True),
        sa.Column('note', sa.String(length=500), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['book_id'], ['books.id'], ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['actor_id'], ['users.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['order_id'], ['orders.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['return_id'], ['returns.id'], ondelete='SET NULL'),
        sa.ForeignKeyConstraint(['shipment_id'], ['shipments.id'], ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_stock_movements_book', 'stock_movements', ['book_id', 'id'], unique=False)
    op.execute("INSERT INTO stock_movements (book_id, kind, quantity, stock_after, actor, created_at) "
               "SELECT id, 'opening', stock, stock, 'system', CURRENT_TIMESTAMP FROM books")


def downgrade():
    op.drop_index('ix_stock_movements_book', table_name='stock_movements')
    op.drop_table('stock_movements')
