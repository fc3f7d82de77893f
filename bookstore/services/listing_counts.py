"""Totals of filtered catalogue lists, remembered per process while the books they count are unchanged.

An exact total of a filtered list (a shelf between two prices, a format, a language) counts every
match in an index, which costs more the larger the catalogue: 4,300 entries for GATE books between
₹200 and ₹1,500 among 100,000 books. Shoppers ask the same few combinations over and over (a shelf
with the filter panel's price bands), so each process remembers a total with the listing_version
it was counted at. Every change that could change such a total bumps a version in the same
transaction (database triggers: books added, deleted, archived, restored or moved bump
categories.listing_version, migration 0005; a visible book's price, rating, format or language
changed bumps categories.filter_version, migration 0010), so a remembered total is only read while
it is still exact. The versions are read before the count, so a total counted after a concurrent
change is filed under the older versions and simply missed later.
"""
from sqlalchemy import Select

from bookstore.extensions import db
from bookstore.memory import BoundedMemory
from bookstore.services.paging import count

# Enough for every shelf with every price band many times over; the oldest is forgotten first.
_remembered = BoundedMemory(4096)  # key -> (versions, total)


def total(ids: Select, list_key: tuple, version: tuple) -> int:
    """How many rows `ids` selects, from memory when counted before at this `version`.

    `list_key` names the list and its filters; `version` its category's listing and filter versions
    (summed over categories for the whole shop), read before this call.
    """
    key = (str(db.engine.url), *list_key)
    remembered = _remembered.get(key)
    if remembered is not None and remembered[0] == version:
        return remembered[1]
    counted = count(ids)
    _remembered.put(key, (version, counted))
    return counted
