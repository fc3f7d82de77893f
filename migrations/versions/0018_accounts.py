"""accounts: server cart, address book, closed accounts, newsletter unsubscribe links

Revision ID: 0018_accounts
Revises: 0017_shipments
Create Date: 2026-11-25 18:15:00

cart_lines keeps a signed-in shopper's cart (one row per book, replaced whole by PUT /api/cart);
saved_addresses is the address book (at most 10 per account, checked by the service; at most one
default, kept by a partial unique index). users.closed_at marks a closed account (its personal data is
erased by the service). mail_outbox.unsubscribe_url is the one-click unsubscribe link a newsletter mail
carries in its List-Unsubscribe header. Nullable columns only: SQLite adds them without rebuilding the
users table, so its triggers stay.
"""
import sqlalchemy as sa
from alembic import op

revision = '0018_accounts'
down_revision = '0017_shipments'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('cart_lines',
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.Column('quantity', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_cart_lines_book_id_books'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_cart_lines_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('user_id', 'book_id', name=op.f('pk_cart_lines'))
    )
    with op.batch_alter_table('cart_lines', schema=None) as batch_op:
        batch_op.create_index('ix_cart_lines_book_id', ['book_id'], unique=False)

    op.create_table('saved_addresses',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('first_name', sa.String(length=100), nullable=False),
    sa.Column('last_name', sa.String(length=100), nullable=False),
    sa.Column('phone', sa.String(length=20), nullable=False),
    sa.Column('address', sa.String(length=300), nullable=False),
    sa.Column('landmark', sa.String(length=200), nullable=False),
    sa.Column('city', sa.String(length=100), nullable=False),
    sa.Column('state', sa.String(length=100), nullable=False),
    sa.Column('zip_code', sa.String(length=10), nullable=False),
    sa.Column('country', sa.String(length=40), nullable=False),
    sa.Column('address_type', sa.String(length=10), nullable=False),
    sa.Column('is_default', sa.Boolean(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_saved_addresses_user_id_users'),
                            ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_saved_addresses'))
    )
    with op.batch_alter_table('saved_addresses', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_saved_addresses_user_id'), ['user_id'], unique=False)
        batch_op.create_index('uq_saved_addresses_default', ['user_id'], unique=True,
                              sqlite_where=sa.text('is_default'), postgresql_where=sa.text('is_default'))

    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('unsubscribe_url', sa.String(length=500), nullable=True))


def downgrade():
    with op.batch_alter_table('mail_outbox', schema=None) as batch_op:
        batch_op.drop_column('unsubscribe_url')
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.drop_column('closed_at')
    with op.batch_alter_table('saved_addresses', schema=None) as batch_op:
        batch_op.drop_index('uq_saved_addresses_default', sqlite_where=sa.text('is_default'),
                            postgresql_where=sa.text('is_default'))
        batch_op.drop_index(batch_op.f('ix_saved_addresses_user_id'))
    op.drop_table('saved_addresses')
    with op.batch_alter_table('cart_lines', schema=None) as batch_op:
        batch_op.drop_index('ix_cart_lines_book_id')
    op.drop_table('cart_lines')
