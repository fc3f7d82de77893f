"""alerts: shoppers' back-in-stock and new-edition e-mail alerts on a book

Revision ID: 0016_alerts
Revises: 0015_reviews
Create Date: 2026-11-25 18:15:00

One alert per address, book and kind (unique), active once confirmed (double opt-in for guests, at
once for a verified account) and marked sent in the transaction that queues its mail. Only a new
table: books is not rebuilt, so its triggers stay.
"""
import sqlalchemy as sa
from alembic import op


revision = '0016_alerts'
down_revision = '0015_reviews'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('book_alerts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('email', sa.String(length=254), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=True),
    sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('sent_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('known_edition_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind IN ('back-in-stock', 'new-edition')", name=op.f('ck_book_alerts_kind')),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_book_alerts_book_id_books'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_book_alerts_user_id_users'), ondelete='SET NULL'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_book_alerts')),
    sa.UniqueConstraint('email', 'book_id', 'kind', name=op.f('uq_book_alerts_email'))
    )
    with op.batch_alter_table('book_alerts', schema=None) as batch_op:
        batch_op.create_index('ix_book_alerts_book_kind', ['book_id', 'kind'], unique=False)
        batch_op.create_index(batch_op.f('ix_book_alerts_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('book_alerts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_book_alerts_user_id'))
        batch_op.drop_index('ix_book_alerts_book_kind')

    op.drop_table('book_alerts')
