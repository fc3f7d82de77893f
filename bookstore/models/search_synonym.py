"""Search synonyms an administrator keeps: groups of words and phrases a search treats as one.

One row per phrase; the phrases of a group share its number. A search looks its words up by
`first_word` (indexed), so the look-up costs the same however many groups the shop keeps.
"""
from sqlalchemy import Index, String
from sqlalchemy.orm import Mapped, mapped_column

from bookstore.extensions import db


class SearchSynonym(db.Model):
    __tablename__ = "search_synonyms"
    __table_args__ = (
        Index("ix_search_synonyms_first_word", "first_word"),
        Index("ix_search_synonyms_group_no", "group_no"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    group_no: Mapped[int]
    # The phrase as search words (services.search.tokens), joined by single spaces: "class x".
    phrase: Mapped[str] = mapped_column(String(80))
    first_word: Mapped[str] = mapped_column(String(40))
