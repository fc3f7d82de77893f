"""Stock moves as single conditional UPDATEs, so concurrent checkouts never oversell.

E-books and audiobooks have no copies to run out of (product §7.11): their stock is neither checked nor
counted down; copies sold still count them."""
from sqlalchemy import case, or_, update

from bookstore.extensions import db
from bookstore.models import DIGITAL_FORMATS, Book, Order
from bookstore.services import alerts

_DIGITAL = Book.format.in_(DIGITAL_FORMATS)


def take(book_id: int, quantity: int) -> bool:
    """Take copies if enough are left (and count them sold); False leaves the book untouched."""
    result = db.session.execute(
        update(Book)
        .where(Book.id == book_id, Book.archived.is_(False), or_(_DIGITAL, Book.stock >= quantity))
        .values(stock=case((_DIGITAL, Book.stock), else_=Book.stock - quantity),
                copies_sold=Book.copies_sold + quantity)
        .execution_options(synchronize_session=False)
    )
    return result.rowcount == 1


def release(order: Order) -> bool:
    """Give an order's copies back, exactly once however often or concurrently it is called."""
    claimed = db.session.execute(
        update(Order).where(Order.id == order.id, Order.stock_released.is_(False))
        .values(stock_released=True).execution_options(synchronize_session=False)
    ).rowcount == 1
    if not claimed:
        return False
    copies: dict[int, int] = {}
    for line in order.lines:  # a kit line gives back each of the books it took
        for book_id, quantity in line.copies().items():
            copies[book_id] = copies.get(book_id, 0) + quantity
    for book_id in sorted(copies):
        db.session.execute(
            update(Book).where(Book.id == book_id)
            .values(stock=case((_DIGITAL, Book.stock), else_=Book.stock + copies[book_id]),
                    copies_sold=Book.copies_sold - copies[book_id])
            .execution_options(synchronize_session=False)
        )
    # Copies back on the shelf: shoppers waiting for these books are told after the commit.
    alerts.awaken(copies)  # each book given back, a kit's books included
    return True
