"""Closing a shopper's account (decisions §9): personal data erased or anonymised, orders kept, sessions ended.

One transaction: the confirmation mail goes to the old address; the account row stays (its orders point at it,
so nobody who registers the address again inherits them) with a non-routable placeholder e-mail, so the address
is free to register again; names, phone, PIN, password and Google link are erased; saved addresses, the server
cart, the wishlist, e-mailed links and the newsletter subscription are deleted; reviews are deleted and each
book's stored rating and count recomputed; orders keep their lines, amounts, payments, history and place of
supply (city, state, PIN: the bill of supply's record) while their name, e-mail, phone and street address are
replaced; every token issued until now is refused. Audited as `account.close`.
"""
import secrets

from sqlalchemy import delete, func, or_, select, update
from werkzeug.security import check_password_hash

from bookstore.errors import Conflict, Forbidden, ValidationFailed
from bookstore.extensions import db
from bookstore.models import (AccountToken, BookAlert, CartLine, NewsletterSubscriber, Order, ReturnRequest, Review,
                              SavedAddress, User, WishlistItem, utcnow)
from bookstore.services import audit, mail, reviews, sessions

CLOSED_DOMAIN = "closed.invalid"  # RFC 2606: .invalid never routes, so no mail can reach a closed account
OPEN_STATUSES = ("pending", "processing", "shipped")


def _check_confirmation(user: User, password: str | None, confirmation: str | None) -> None:
    """A password account confirms with its password; a Google account by typing its e-mail address.
    :raise ValidationFailed:"""
    if user.password_hash:
        if not password or not check_password_hash(user.password_hash, password):
            raise ValidationFailed({"password": ["Password is incorrect."]}, "Password is incorrect.")
    elif (confirmation or "").strip().lower() != user.email:
        raise ValidationFailed({"confirmation": [f"Type your e-mail address, {user.email}, to confirm."]},
                               "Type your e-mail address to confirm.")


def _forget_reviews(user: User) -> None:
    """Delete the account's reviews; each book's stored average and count follow (as services/reviews.py keeps them)."""
    book_ids = sorted(db.session.scalars(select(Review.book_id).where(Review.user_id == user.id)))
    for book_id in book_ids:
        reviews.lock_book(book_id)
    db.session.execute(delete(Review).where(Review.user_id == user.id))
    for book_id in book_ids:
        reviews.refresh_rating(book_id)


def close(user: User, password: str | None, confirmation: str | None) -> None:
    """Close the signed-in shopper's account.

    :raise Forbidden: administrators. :raise ValidationFailed: a wrong password or confirmation.
    :raise Conflict: orders still on their way (they need the contact details until they arrive or are cancelled).
    """
    if user.is_admin:
        raise Forbidden("Administrator accounts cannot be closed here.")
    _check_confirmation(user, password, confirmation)
    on_their_way = db.session.scalar(select(func.count()).select_from(Order).where(
        Order.user_id == user.id, Order.status.in_(OPEN_STATUSES)))
    if on_their_way:
        raise Conflict(f"You have {on_their_way} order(s) still on their way. Please close the account once they "
                       "have arrived, or cancel them first.")
    open_returns = db.session.scalar(select(func.count()).select_from(ReturnRequest).join(Order).where(
        Order.user_id == user.id, ReturnRequest.status.in_(("requested", "approved", "received", "refund_pending"))))
    if open_returns:
        # A return's refund still needs the account details and the shopper's e-mail (product §7.10).
        raise Conflict(f"You have {open_returns} return(s) not yet refunded. Please close the account once they are.")
    old_email = user.email
    # Mail kept in the outbox names the shopper and their addresses: it goes with the account, and the
    # confirmation below greets nobody by name.
    mail.forget_addresses({old_email, *db.session.scalars(select(Order.email).where(Order.user_id == user.id))})
    mail.queue(old_email, "Your Bookstore account is closed",
               "Hello,\n\nYour Bookstore account has been closed as you asked. We have erased your "
               "name, phone number, saved addresses, cart, wishlist, reviews, book alerts and newsletter subscription, and "
               "signed out every device. We keep your past orders' amounts and places of delivery, as the law on "
               "accounts requires, without your name or contact details.\n\nYou are welcome to register again "
               f"with this address at any time: {mail.shop_url('/register')}")
    placeholder = f"closed-{user.id}-{secrets.token_hex(6)}@{CLOSED_DOMAIN}"
    for model in (SavedAddress, CartLine, WishlistItem, AccountToken):
        db.session.execute(delete(model).where(model.user_id == user.id))
    db.session.execute(delete(NewsletterSubscriber).where(NewsletterSubscriber.email == old_email))
    # "Notify me" alerts are kept by address, signed in or not: none may mail a closed account.
    db.session.execute(delete(BookAlert).where(or_(BookAlert.user_id == user.id, BookAlert.email == old_email)))
    _forget_reviews(user)
    db.session.execute(update(ReturnRequest).where(ReturnRequest.order_id.in_(select(Order.id).where(
        Order.user_id == user.id))).values(note="", refund_upi=None, refund_account=None, refund_ifsc=None,
                                           refund_holder=None).execution_options(synchronize_session=False))
    db.session.execute(update(Order).where(Order.user_id == user.id).values(
        email=placeholder, first_name="Closed", last_name="account", phone="", address="Erased", landmark="")
        .execution_options(synchronize_session=False))
    user.email, user.first_name, user.last_name = placeholder, "Closed", "account"
    user.phone = user.password_hash = user.google_subject = user.delivery_pin = None
    user.email_verified = False
    user.pending_email = None
    user.closed_at = utcnow()
    sessions.end_all(user)
    # The entry names the account by its id and placeholder only: the old address is what was erased.
    audit.record(user, "account.close", "user", user.id, {"closed": False}, {"closed": True})
    db.session.commit()
