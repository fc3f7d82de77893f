"""One page of a query, with the total for pagination."""
from dataclasses import dataclass

from sqlalchemy import Select, func, select

from bookstore.extensions import db


@dataclass
class Page:
    items: list
    total: int
    page: int
    limit: int
    # Lists whose counting can stop early (book lists) say whether it did: True means more than
    # `total` match. None: this list is always counted in full and does not say.
    total_is_approximate: bool | None = None
    # Searches only: the corrected search these items answer, when the one typed found nothing.
    did_you_mean: str | None = None

    @property
    def total_pages(self) -> int:
        """Pages known to hold items: with an approximate total, the one past it counts too."""
        known = self.total + 1 if self.total_is_approximate else self.total
        return (known + self.limit - 1) // self.limit


def count(statement: Select) -> int:
    """Rows a select would return (counted over a subquery, so a bare select(Model) counts right)."""
    return db.session.scalar(select(func.count()).select_from(statement.order_by(None).subquery()))


def paginate(statement: Select, page: int, limit: int, *order_by) -> Page:
    """The rows of one page in the given order, and how many there are in all."""
    items = db.session.scalars(statement.order_by(*order_by).limit(limit).offset((page - 1) * limit)).all()
    return Page(list(items), count(statement), page, limit)
