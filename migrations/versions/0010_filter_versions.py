"""categories.filter_version: bumped when a visible book's price, rating, format or language changes

Revision ID: 0010_filter_versions
Revises: 0009_search_word_counts
Create Date: 2026-11-24 23:45:00

A filtered list's total (a shelf between two prices, say) is exact, and counting it visits every
match, which costs more the larger the catalogue. services/listing_counts.py remembers such totals
per process for as long as the list they count is unchanged. Migration 0005's triggers bump a
category's listing_version when its visible books come or go; this trigger bumps its filter_version
when a visible book changes a value a filter compares (prices, rating, format, language), so a
remembered total is never read after the books it counted changed. A separate column, because the
deep-page anchors of listing_version do not depend on those values. Stock and sales move neither.
"""
import sqlalchemy as sa
from alembic import op

revision = '0010_filter_versions'
down_revision = '0009_search_word_counts'
branch_labels = None
depends_on = None

FILTERED = ("price_paise", "discounted_price_paise", "rating", "format", "language")


def _changed(distinct: str) -> str:
    return " OR ".join(f"old.{column} {distinct} new.{column}" for column in FILTERED)


def upgrade():
    op.add_column('categories', sa.Column('filter_version', sa.Integer(), server_default='0', nullable=False))
    columns = ", ".join(FILTERED)
    if op.get_bind().dialect.name == "postgresql":
        op.execute("""CREATE FUNCTION books_filters_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE categories SET filter_version = filter_version + 1 WHERE id = NEW.category_id;
                RETURN NULL;
            END $$""")
        op.execute(f"""CREATE TRIGGER books_filters_changed AFTER UPDATE OF {columns} ON books FOR EACH ROW
            WHEN (NOT new.archived AND ({_changed('IS DISTINCT FROM')}))
            EXECUTE FUNCTION books_filters_changed()""")
        return
    op.execute(f"""CREATE TRIGGER books_filters_changed AFTER UPDATE OF {columns} ON books
        WHEN new.archived = 0 AND ({_changed('IS NOT')}) BEGIN
            UPDATE categories SET filter_version = filter_version + 1 WHERE id = new.category_id;
        END""")


def downgrade():
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER books_filters_changed ON books")
        op.execute("DROP FUNCTION books_filters_changed()")
    else:
        op.execute("DROP TRIGGER books_filters_changed")
    # Plain ALTER TABLE, like 0005: a batch rebuild of categories would break the books triggers.
    op.execute("ALTER TABLE categories DROP COLUMN filter_version")
