"""PostgreSQL: how many visible books hold each search word, so a one-word search knows "1,000+" at once

Revision ID: 0009_search_word_counts
Revises: 0008_coupons
Create Date: 2026-11-24 10:00:00

A search's total is exact up to 1,000 matches and "1,000+" above (services/search.py). Counting to
1,001 in the GIN index still builds the bitmap of every match and visits 1,001 rows, which costs
more the larger the catalogue (4,600 books say "chemistry" among 100,000). search_word_counts holds,
for every word of the books' search vectors, how many visible books have it. Statement triggers on
books keep it in the same transaction: one grouped upsert per statement, words in order so that
concurrent writers lock them in the same order; an update moves counts only for books whose words
or visibility changed, not for stock or sales. A one-word search whose prefix takes in a word that
more than 1,000 visible books hold has more than 1,000 matches without counting any. Words whose
books are all gone keep a row at 0. SQLite needs none of this: its full-text count stops at the LIMIT.
"""
from alembic import op

revision = '0009_search_word_counts'
down_revision = '0008_coupons'
branch_labels = None
depends_on = None


def _upsert(changes: str) -> str:
    """Add each word's changes (rows of word, change) to its count, words in order."""
    return f"""INSERT INTO search_word_counts AS counts (word, books)
        SELECT word, sum(change) FROM ({changes}) AS changes GROUP BY word HAVING sum(change) <> 0 ORDER BY word
        ON CONFLICT (word) DO UPDATE SET books = counts.books + EXCLUDED.books"""


_CHANGED = ("(old_rows.search_vector IS DISTINCT FROM new_rows.search_vector"
            " OR old_rows.archived IS DISTINCT FROM new_rows.archived)")
CHANGES = {
    "insert": """SELECT word, 1 AS change FROM new_rows, unnest(tsvector_to_array(new_rows.search_vector)) AS word
        WHERE new_rows.archived IS false""",
    "delete": """SELECT word, -1 AS change FROM old_rows, unnest(tsvector_to_array(old_rows.search_vector)) AS word
        WHERE old_rows.archived IS false""",
    "update": f"""SELECT word, -1 AS change FROM old_rows JOIN new_rows USING (id),
            unnest(tsvector_to_array(old_rows.search_vector)) AS word
        WHERE old_rows.archived IS false AND {_CHANGED}
        UNION ALL
        SELECT word, 1 FROM old_rows JOIN new_rows USING (id), unnest(tsvector_to_array(new_rows.search_vector)) AS word
        WHERE new_rows.archived IS false AND {_CHANGED}""",
}
TRANSITIONS = {"insert": "NEW TABLE AS new_rows", "delete": "OLD TABLE AS old_rows",
               "update": "OLD TABLE AS old_rows NEW TABLE AS new_rows"}


def upgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute('CREATE TABLE search_word_counts (word text COLLATE "C" PRIMARY KEY, books integer NOT NULL)')
    for event, changes in CHANGES.items():
        op.execute(f"""CREATE FUNCTION books_search_words_{event}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            {_upsert(changes)};
            RETURN NULL;
        END $$""")
        op.execute(f"""CREATE TRIGGER books_search_words_{event} AFTER {event.upper()} ON books
            REFERENCING {TRANSITIONS[event]} FOR EACH STATEMENT EXECUTE FUNCTION books_search_words_{event}()""")
    op.execute(_upsert("SELECT word, 1 AS change FROM books, unnest(tsvector_to_array(books.search_vector)) AS word"
                       " WHERE books.archived IS false"))


def downgrade():
    if op.get_bind().dialect.name != "postgresql":
        return
    for event in CHANGES:
        op.execute(f"DROP TRIGGER books_search_words_{event} ON books")
        op.execute(f"DROP FUNCTION books_search_words_{event}()")
    op.execute("DROP TABLE search_word_counts")
