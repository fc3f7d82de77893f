"""Links to one order that need no sign-in (every order e-mail carries one): signed and expiring.

The token is the order's `_id` and an expiry time signed with the app's secret (itsdangerous), so
nothing is stored; it opens that order only. `ORDER_LINK_DAYS` after it was made it stops working.
"""
from datetime import datetime, timedelta, timezone

from flask import current_app
from itsdangerous import BadSignature, Signer

from bookstore import clock
from bookstore.errors import Forbidden, NotFound
from bookstore.models import Order

_SALT = "order-link"
INVALID = "This order link is not valid. Please use the link in your latest order e-mail, or find the order by its number and e-mail."
EXPIRED = "This order link has expired. Please find the order by its number and e-mail instead."


def _signer() -> Signer:
    return Signer(current_app.config["SECRET_KEY"], salt=_SALT)


def issue(order: Order) -> str:
    """A token opening this order until `ORDER_LINK_DAYS` from now."""
    expires = clock.now() + timedelta(days=current_app.config["ORDER_LINK_DAYS"])
    return _signer().sign(f"{order.public_id}.{int(expires.timestamp())}").decode()


def path(order: Order) -> str:
    """The guest order page for this order: /orders/<id>?token=..."""
    return f"/orders/{order.public_id}?token={issue(order)}"


def bill_path(order: Order) -> str:
    """The bill's download address with a fresh token (works without signing in)."""
    return f"/api/orders/{order.public_id}/bill?token={issue(order)}"


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
