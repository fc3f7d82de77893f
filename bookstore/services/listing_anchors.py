"""Deep pages of the plain catalogue listings at a constant cost: remembered anchors plus a keyset.

A page deep in a list ordered by (created_at, id) normally skips every entry before it, which
grows with the catalogue (20,000 index entries for a page 80% into 100,000 books). Instead, each
process remembers the sort key of every ANCHOR_EVERY-th book of such a list, and a deep page
starts from the nearest anchor before it (`(created_at, id) < anchor`), skipping fewer than
ANCHOR_EVERY entries. The anchors hold while the list itself is unchanged: a book's created_at
and id never change, and every change to which books a category shows bumps that category's
listing_version (database triggers, migration 0005). Anchors are found again when the version
differs, in one index-only pass over the list.
"""
from dataclasses import dataclass

from sqlalchemy import func, select, tuple_
from sqlalchemy.sql import operators

from bookstore.extensions import db
from bookstore.models import Book

ANCHOR_EVERY = 1000


@dataclass
class _Anchors:
    version: int
    keys: list[tuple]  # the sort key of books number ANCHOR_EVERY, 2 * ANCHOR_EVERY, ... (1-based)


# Per process: (database, list) -> anchors. A list is one of the sorts with fixed keys, over all
# visible books or one category's; at most 2 x 19 of them.
_remembered: dict[tuple, _Anchors] = {}


def page_from_anchor(order: tuple, base: list, list_key: tuple, version: int,
                     limit: int, offset: int) -> list[int] | None:
    """Ids of one page, read from the nearest anchor before `offset`; None when the page is not deep
    enough for an anchor to help (the caller pages as usual).

    `order` must be ascending or descending on (created_at, id) alone; `base` the list's conditions;
    `version` what the list's listing_version is now (summed over categories for the whole shop).
    """
    if offset < ANCHOR_EVERY:
        return None
    anchors = _anchors(order, base, (str(db.engine.url), *list_key), version)
    index = offset // ANCHOR_EVERY
    if index > len(anchors.keys):
        return []  # past the end of the list
    anchor = anchors.keys[index - 1]
    key = tuple_(*(clause.element for clause in order))
    after = key < tuple_(*anchor) if order[0].modifier is operators.desc_op else key > tuple_(*anchor)
    return list(db.session.scalars(select(Book.id).where(*base, after).order_by(*order)
                                   .limit(limit).offset(offset - index * ANCHOR_EVERY)))


def _anchors(order: tuple, base: list, key: tuple, version: int) -> _Anchors:
    remembered = _remembered.get(key)
    if remembered is None or remembered.version != version:
        columns = [clause.element for clause in order]
        numbered = select(*columns, func.row_number().over(order_by=order).label("position")).where(*base).subquery()
        found = db.session.execute(select(*(numbered.c[column.key] for column in columns))
                                   .where(numbered.c.position % ANCHOR_EVERY == 0)
                                   .order_by(numbered.c.position))
        remembered = _remembered[key] = _Anchors(version, [tuple(row) for row in found])
    return remembered
