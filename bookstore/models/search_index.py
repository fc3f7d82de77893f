"""Names of the full-text index objects that migrations create by hand and the models do not describe."""


def include_in_autogenerate(name, type_, parent_names) -> bool:
    """Alembic filter: leave the search index (FTS5 table, tsvector column and its index, and
    PostgreSQL's counts of each word's books) alone."""
    if type_ == "table":
        return not (name or "").startswith("book_search") and name != "search_word_counts"
    if type_ == "column":
        return name != "search_vector"
    if type_ == "index":
        return not (name or "").startswith("ix_books_search")  # the whole-book and per-part word indexes
    return True
