"""reviews: buyers' stars, title and text; moderation status

Revision ID: 0015_reviews
Revises: 0014_exams_and_editions
Create Date: 2026-11-25 16:09:00

One review per buyer per book (unique book_id, user_id), 1 to 5 stars, an optional title and text,
published at once and hidden by an administrator with a reason. books.rating and books.rating_count
are not changed here: services/reviews.py recomputes them from a book's published reviews whenever
one of them changes (so a book's first review replaces a rating given before reviews existed), and
that write bumps categories.filter_version through migration 0010/0014's trigger as any rating
change does. Only a new table: books is not rebuilt, so its triggers stay.
"""
import sqlalchemy as sa
from alembic import op


revision = '0015_reviews'
down_revision = '0014_exams_and_editions'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('reviews',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('book_id', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('stars', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=120), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('hidden_reason', sa.String(length=500), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("status IN ('published', 'hidden')", name=op.f('ck_reviews_status')),
    sa.CheckConstraint('stars >= 1 AND stars <= 5', name=op.f('ck_reviews_stars_range')),
    sa.ForeignKeyConstraint(['book_id'], ['books.id'], name=op.f('fk_reviews_book_id_books'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_reviews_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_reviews')),
    sa.UniqueConstraint('book_id', 'user_id', name=op.f('uq_reviews_book_id'))
    )
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.create_index('ix_reviews_book_status_created', ['book_id', 'status', 'created_at'], unique=False)
        batch_op.create_index('ix_reviews_status_created', ['status', 'created_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_reviews_user_id'), ['user_id'], unique=False)


def downgrade():
    with op.batch_alter_table('reviews', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_reviews_user_id'))
        batch_op.drop_index('ix_reviews_status_created')
        batch_op.drop_index('ix_reviews_book_status_created')

    op.drop_table('reviews')
