"""PostgreSQL: a search index of visible books only, and price indexes that answer counts alone

Revision ID: 0004_pg_list_indexes
Revises: 0003_accounts_audit
Create Date: 2026-11-24 04:30:00

Shoppers only ever search visible books. A GIN index limited to them lets a search be counted in
the index (no visit to each match's row to check `archived`), and lets the planner read a
relevance tier newest first and stop after one page. The price-range indexes carry the two price
columns, so a filtered list is counted by an index-only scan (PostgreSQL only considers one when
every column the expression reads is in the index). SQLite needs neither: its full-text table holds
only visible books already, and its expression indexes are read without the rows.
"""
from alembic import op

revision = '0004_pg_list_indexes'
down_revision = '0003_accounts_audit'
branch_labels = None
depends_on = None

PRICE = "coalesce(discounted_price_paise, price_paise)"
PRICE_INDEXES = {"ix_books_listing_category_price": f"category_id, archived, ({PRICE})",
                 "ix_books_listing_price": f"archived, ({PRICE})"}


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE INDEX ix_books_search_vector_visible ON books USING gin (search_vector) WHERE archived IS false")
    for name, columns in PRICE_INDEXES.items():
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE INDEX {name} ON books ({columns}) INCLUDE (discounted_price_paise, price_paise)")


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP INDEX ix_books_search_vector_visible")
    for name, columns in PRICE_INDEXES.items():
        op.execute(f"DROP INDEX {name}")
        op.execute(f"CREATE INDEX {name} ON books ({columns})")
