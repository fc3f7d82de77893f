"""The columns a feed is read by: the book form's fields plus medium, edition, exams, replaces-ISBN and cover URL.

Each column has one label (the header the shop writes, in the style of the admin CSV exports: "Price (INR)")
and is also known by the admin API's field name ("discountedPrice"). A header is matched in any order and
letter case, ignoring spaces and punctuation: "price (inr)", "PRICE_INR" and "price" are one column.
"""
import re
from typing import NamedTuple


class Column(NamedTuple):
    key: str       # the row dict's key, which is also the admin form's field name
    label: str     # the header the shop writes
    aliases: tuple[str, ...] = ()


COLUMNS = (
    Column("isbn", "ISBN", ("isbn13", "isbn10")),
    Column("title", "Title"),
    Column("author", "Author", ("authors",)),
    Column("description", "Description"),
    Column("price", "Price (INR)", ("price", "mrp", "listprice")),
    Column("discountedPrice", "Discounted price (INR)", ("discountedprice", "saleprice")),
    Column("category", "Category"),
    Column("stock", "Stock", ("quantity", "onhand")),
    Column("publisher", "Publisher"),
    Column("publicationDate", "Publication date", ("publishdate", "published")),
    Column("language", "Language"),
    Column("pages", "Pages"),
    Column("format", "Format"),
    Column("dimensions", "Dimensions"),
    Column("weight", "Weight"),
    Column("tags", "Tags"),
    Column("medium", "Medium"),
    Column("editionYear", "Edition year"),
    Column("editionNumber", "Edition number"),
    Column("exams", "Exams"),
    Column("replacesIsbn", "Replaces ISBN"),
    Column("coverUrl", "Cover URL", ("imageurl", "cover")),
)
LABELS = {column.key: column.label for column in COLUMNS}
# A price & stock feed reads only these; any other column it carries is reported and ignored.
STOCK_KEYS = ("isbn", "price", "discountedPrice", "stock")


def _normalised(header: str) -> str:
    return re.sub(r"[^a-z0-9]", "", str(header or "").lower())


_BY_NAME = {}
for _column in COLUMNS:
    for _name in (_column.key, _column.label, *_column.aliases):
        _BY_NAME[_normalised(_name)] = _column.key


def column_key(header) -> str | None:
    """The column a header names, or None when the shop reads no such column."""
    return _BY_NAME.get(_normalised(header))
