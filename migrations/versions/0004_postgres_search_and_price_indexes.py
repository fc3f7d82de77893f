"""PostgreSQL: search indexes of visible books only, and price indexes that answer counts alone

Revision ID: 0004_pg_list_indexes
Revises: 0003_accounts_audit
Create Date: 2026-11-24 04:30:00

Shoppers only ever search visible books, so their searches use a GIN index of visible books only
(admins' searches including archived books keep the whole one). A count still visits each match's
row, for its visibility, but the planner can read a relevance tier newest first and stop after one
page. Suggestions look for prefixes in one part of the book (title, author, description): the
weights of the whole-book vector are only checked on each matching row, so an author prefix that
mostly matches descriptions rechecked thousands of rows (18 ms at 100,000 books); an index of that
part's words alone answers it directly. The price-range indexes carry the two price columns, so a
filtered list is counted by an index-only scan (PostgreSQL only considers one when every column the
expression reads is in the index). SQLite needs none of this: its full-text table holds only
visible books already, and its expression indexes are read without the rows.
"""
from alembic import op

revision = '0004_pg_list_indexes'
down_revision = '0003_accounts_audit'
branch_labels = None
depends_on = None

PRICE = "coalesce(discounted_price_paise, price_paise)"
SUGGESTION_PARTS = ("title", "author", "description")  # services/search.py, best_sellers_by_part
PRICE_INDEXES = {"ix_books_listing_category_price": f"category_id, archived, ({PRICE})",
                 "ix_books_listing_price": f"archived, ({PRICE})"}


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE INDEX ix_books_search_vector_visible ON books USING gin (search_vector) WHERE archived IS false")
    for part in SUGGESTION_PARTS:
        op.execute(f"CREATE INDEX ix_books_search_{part}_words ON books USING gin (to_tsvector('simple', {part}))"
                   " WHERE archived IS false")
    for name, columns in PRICE_INDEXES.items():
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE INDEX {name} ON books ({columns}) INCLUDE (discounted_price_paise, price_paise)")


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP INDEX ix_books_search_vector_visible")
    for part in SUGGESTION_PARTS:
        op.execute(f"DROP INDEX ix_books_search_{part}_words")
    for name, columns in PRICE_INDEXES.items():
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE INDEX {name} ON books ({columns})")
