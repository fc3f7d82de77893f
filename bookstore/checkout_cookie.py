"""The checkout cookie: which browser placed an order, so an unpaid online order is replaced only by a new
checkout from the same browser (or the same account), never by anyone who types the shopper's e-mail.

`checkout` is a random id (128 bits) given to a browser by its first order attempt: HttpOnly,
SameSite=Strict, sent only to /api/orders, kept 30 days, Secure in production. The order keeps its
SHA-256, so someone reading the database cannot present it.
"""
import hashlib
import re
import secrets
from datetime import timedelta

from flask import Response, after_this_request, current_app, request

COOKIE = "checkout"
PATH = "/api/orders"
LIFETIME = timedelta(days=30)
_VALUE = re.compile(r"[A-Za-z0-9_-]{22,64}")


def browser() -> str:
    """The SHA-256 of this browser's checkout id: the cookie's, else a new one, given to the browser with this
    request's response."""
    value = request.cookies.get(COOKIE, "")
    if not _VALUE.fullmatch(value):
        value = secrets.token_urlsafe(16)
        after_this_request(lambda response: _give(response, value))
    return hashlib.sha256(value.encode()).hexdigest()


def _give(response: Response, value: str) -> Response:
    response.set_cookie(COOKIE, value, max_age=int(LIFETIME.total_seconds()), path=PATH, httponly=True,
                        secure=current_app.config["SESSION_COOKIE_SECURE"], samesite="Strict")
    return response
