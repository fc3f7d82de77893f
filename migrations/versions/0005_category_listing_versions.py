"""categories.listing_version: bumped whenever a category's visible books change

Revision ID: 0005_listing_versions
Revises: 0004_pg_list_indexes
Create Date: 2026-11-24 04:45:00

The triggers that keep categories.book_count also count changes: a book added, deleted, archived,
put back on sale or moved to another shelf bumps its category's listing_version (both categories
for a move). A listing ordered by a key that never changes (created_at, id) is then the same list
for as long as the versions are the same, which lets services/listing_anchors.py remember where
every thousandth book stands and start a deep page from there.
"""
import sqlalchemy as sa
from alembic import op

revision = '0005_listing_versions'
down_revision = '0004_pg_list_indexes'
branch_labels = None
depends_on = None


def _sqlite_triggers(bump: str) -> list[str]:
    return [
        f"""CREATE TRIGGER books_count_insert AFTER INSERT ON books WHEN new.archived = 0 BEGIN
            UPDATE categories SET book_count = book_count + 1{bump} WHERE id = new.category_id;
        END""",
        f"""CREATE TRIGGER books_count_delete AFTER DELETE ON books WHEN old.archived = 0 BEGIN
            UPDATE categories SET book_count = book_count - 1{bump} WHERE id = old.category_id;
        END""",
        f"""CREATE TRIGGER books_count_update AFTER UPDATE OF archived, category_id ON books BEGIN
            UPDATE categories SET book_count = book_count - 1{bump} WHERE id = old.category_id AND old.archived = 0;
            UPDATE categories SET book_count = book_count + 1{bump} WHERE id = new.category_id AND new.archived = 0;
        END""",
    ]


def _postgres_function(bump: str) -> str:
    return f"""CREATE OR REPLACE FUNCTION books_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') AND NOT OLD.archived THEN
            UPDATE categories SET book_count = book_count - 1{bump} WHERE id = OLD.category_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') AND NOT NEW.archived THEN
            UPDATE categories SET book_count = book_count + 1{bump} WHERE id = NEW.category_id;
        END IF;
        RETURN NULL;
    END $$"""


BUMP = ", listing_version = listing_version + 1"


def _replace_triggers(bump: str) -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_postgres_function(bump))
        return
    for name in ("books_count_insert", "books_count_delete", "books_count_update"):
        op.execute(f"DROP TRIGGER {name}")
    for statement in _sqlite_triggers(bump):
        op.execute(statement)


# Plain ALTER TABLE in both directions (DROP COLUMN needs SQLite 3.35+): a batch rebuild of
# categories would break the books triggers that name it.


def upgrade():
    op.add_column('categories', sa.Column('listing_version', sa.Integer(), server_default='0', nullable=False))
    _replace_triggers(BUMP)


def downgrade():
    _replace_triggers("")
    op.execute("ALTER TABLE categories DROP COLUMN listing_version")
