"""Buyers' reviews: who may write one, writing and editing it, the admin's moderation, and the book's average.

Only a shopper with a delivered order holding the book (alone or in a kit) may review it, once (decisions: reviews come only
from buyers whose order with that book was delivered). A review is published at once and moderated after
the fact. A book's `rating` and `rating_count` are the average stars and number of its published reviews,
recomputed in the transaction that changes a review; writing `books.rating` also bumps the category's
`filter_version` through migration 0010's trigger, so remembered filtered totals stay right.
"""
from dataclasses import dataclass

from sqlalchemy import func, or_, select, update
from sqlalchemy.exc import IntegrityError

from bookstore.errors import Conflict, Forbidden, NotFound
from bookstore.extensions import db
from bookstore.models import Book, Order, OrderLine, OrderLineBook, Review, User
from bookstore.services import audit
from bookstore.services.catalogue import get_book
from bookstore.services.paging import Page, paginate
from bookstore.services.rows import by_id

NOT_A_BUYER = "Only shoppers whose order of this book has been delivered can review it."
ALREADY_REVIEWED = "You have already reviewed this book. Edit your review instead."


@dataclass
class Standing:
    """What a signed-in shopper may do on a book's reviews: their own review, and whether they may write one."""

    review: Review | None
    can_review: bool
    reason: str | None


def _is_delivered_buyer(user: User, book_id: int) -> bool:
    """Whether a delivered order of the shopper's holds the book, on a line of its own or in a kit (product §3.9)."""
    return db.session.scalar(
        select(Order.id).join(OrderLine, OrderLine.order_id == Order.id)
        .outerjoin(OrderLineBook, OrderLineBook.order_line_id == OrderLine.id)
        .where(Order.user_id == user.id, Order.status == "delivered",
               or_(OrderLine.book_id == book_id, OrderLineBook.book_id == book_id)).limit(1)
    ) is not None


def _own(user: User, book_id: int) -> Review | None:
    return db.session.scalar(select(Review).where(Review.book_id == book_id, Review.user_id == user.id))


def lock_book(book_id: int) -> None:
    """Serialise a book's review writes on PostgreSQL (no-op on SQLite, whose writes are serial), so two
    reviews at once both count in the average."""
    db.session.execute(select(Book.id).where(Book.id == book_id).with_for_update())


def refresh_rating(book_id: int) -> None:
    """Set the book's average and count from its published reviews (flushed first by autoflush)."""
    average, number = db.session.execute(
        select(func.avg(Review.stars), func.count()).where(Review.book_id == book_id, Review.status == "published")
    ).one()
    db.session.execute(update(Book).where(Book.id == book_id).values(
        rating=round(float(average), 2) if number else 0.0, rating_count=number))


def published(book_id: str, page: int, limit: int) -> tuple[Book, Page]:
    """A visible book and a page of its published reviews, newest first. :raise NotFound:"""
    book = get_book(book_id)
    statement = select(Review).where(Review.book_id == book.id, Review.status == "published")
    return book, paginate(statement, page, limit, Review.created_at.desc(), Review.id.desc())


def standing(user: User, book_id: str) -> Standing:
    """The shopper's own review of a visible book, and whether they may write one. :raise NotFound:"""
    book = get_book(book_id)
    review = _own(user, book.id)
    if review is not None:
        return Standing(review, False, ALREADY_REVIEWED)
    if not _is_delivered_buyer(user, book.id):
        return Standing(None, False, NOT_A_BUYER)
    return Standing(None, True, None)


def create(user: User, book_id: str, data: dict) -> Review:
    """Publish a delivered buyer's first review of a book. :raise NotFound: :raise Forbidden: :raise Conflict:"""
    book = get_book(book_id)
    if not _is_delivered_buyer(user, book.id):
        raise Forbidden(NOT_A_BUYER)
    lock_book(book.id)
    if _own(user, book.id) is not None:
        raise Conflict(ALREADY_REVIEWED)
    review = Review(book_id=book.id, user=user, stars=data["stars"], title=data["title"], text=data["text"],
                    status="published")
    db.session.add(review)
    try:
        refresh_rating(book.id)
        db.session.commit()
    except IntegrityError:
        # The same shopper's second tab won the race for the one review per book.
        db.session.rollback()
        raise Conflict(ALREADY_REVIEWED) from None
    return review


def edit_own(user: User, book_id: str, data: dict) -> Review:
    """Change the shopper's own review (a hidden one stays hidden). :raise NotFound:"""
    book = get_book(book_id)
    lock_book(book.id)
    review = _own(user, book.id)
    if review is None:
        raise NotFound("You have not reviewed this book yet.")
    for field in ("stars", "title", "text"):
        if field in data:
            setattr(review, field, data[field])
    refresh_rating(book.id)
    db.session.commit()
    return review


def for_admin(page: int, limit: int, status: str | None = None) -> Page:
    """Every review, or those of one status, newest first."""
    statement = select(Review)
    if status:
        statement = statement.where(Review.status == status)
    return paginate(statement, page, limit, Review.created_at.desc(), Review.id.desc())


def moderate(admin: User, review_id: str, status: str, reason: str | None) -> Review:
    """Publish or hide (with a reason) a review, audited, and the book's average follows. :raise NotFound:"""
    review = by_id(Review, review_id)
    if review is None:
        raise NotFound("Review not found.")
    lock_book(review.book_id)
    before = {"status": review.status, "hiddenReason": review.hidden_reason}
    review.status = status
    if status == "hidden":
        review.hidden_reason = reason
    after = {"status": review.status, "hiddenReason": review.hidden_reason}
    audit.record(admin, "review.status", "review", review.id, before, after)
    refresh_rating(review.book_id)
    db.session.commit()
    return review
