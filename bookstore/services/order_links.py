"""Links to one order that need no sign-in (every order e-mail carries one): signed and expiring.

The token is the order's `_id` and an expiry time signed with the app's secret (itsdangerous), so
nothing is stored; it opens that order only. `ORDER_LINK_DAYS` after it was made it stops working.
"""
from datetime import datetime, timedelta, timezone

from flask import current_app
from itsdangerous import BadSignature, Signer

from bookstore import clock
from bookstore.errors import Forbidden, NotFound
from bookstore.extensions import db
from bookstore.models import Order, User

_SALT = "order-link"
INVALID = "This order link is not valid. Please use the link in your latest order e-mail, or find the order by its number and e-mail."
EXPIRED = "This order link has expired. Please find the order by its number and e-mail instead."
CLOSED = "This order's account was closed: its link can show the order, not change it."


def _signer() -> Signer:
    return Signer(current_app.config["SECRET_KEY"], salt=_SALT)


def issue(order: Order) -> str:
    """A token opening this order until `ORDER_LINK_DAYS` from now."""
    return _token(order.public_id)


def path(order: Order) -> str:
    """The guest order page for this order: /orders/<id>?token=..."""
    return page_path(order.public_id)


def bill_path(order: Order) -> str:
    """The bill's download address with a fresh token (works without signing in)."""
    return bill_path_of(order.public_id)


def page_path(public_id: str) -> str:
    """The guest order page of the order with this `_id`, with a fresh token (mails make it when sent)."""
    return f"/orders/{public_id}?token={_token(public_id)}"


def bill_path_of(public_id: str) -> str:
    """The bill's address of the order with this `_id`, with a fresh token."""
    return f"/api/orders/{public_id}/bill?token={_token(public_id)}"


def token_for(public_id: str) -> str:
    """A fresh token opening the order with this `_id` (an e-mail's link, made when the mail is sent)."""
    return _token(public_id)


def _token(public_id: str) -> str:
    expires = clock.now() + timedelta(days=current_app.config["ORDER_LINK_DAYS"])
    return _signer().sign(f"{public_id}.{int(expires.timestamp())}").decode()


def check(public_id: str, token: str) -> None:
    """Whether the token opens this order now. :raise NotFound: forged or another order's.
    :raise Forbidden: expired."""
    try:
        value = _signer().unsign(token).decode()
    except (BadSignature, UnicodeError):
        raise NotFound(INVALID) from None
    token_order, _, expires = value.rpartition(".")
    if token_order != public_id or not expires.isdigit():
        raise NotFound(INVALID)
    if datetime.fromtimestamp(int(expires), timezone.utc) <= clock.now():
        raise Forbidden(EXPIRED)


def check_writable(order: Order) -> None:
    """An order link may change an order (ask for a return, cancel, download) only while its account is open:
    a closed account's links show the order and its bill, nothing more. :raise Forbidden:"""
    owner = db.session.get(User, order.user_id) if order.user_id else None
    if owner is not None and owner.closed_at is not None:
        raise Forbidden(CLOSED)
