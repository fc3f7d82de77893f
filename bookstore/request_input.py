"""What the shop accepts as a request: JSON that is plain data, bodies and addresses of bounded size.

Every route benefits: the JSON provider and request class are the app's own, and one
`before_request` hook refuses an oversized body or a bad JSON document before any view, schema or
rate-limit key reads it. A refusal is a 4xx in the envelope and changes nothing.
"""
import json
import re

from flask import Flask, current_app, request
from flask import Request as FlaskRequest
from flask.json.provider import DefaultJSONProvider
from werkzeug.exceptions import RequestURITooLarge

from bookstore.errors import BadRequest, NotFound, PayloadTooLarge

# Bodies: every route takes at most 64 KB (an order of 20 lines is about 3 KB) unless its view says
# otherwise with @body_limit (book writes, which carry a cover as a data URL).
DEFAULT_BODY_BYTES = 64 * 1024
# The longest request target (path and query) answered: gunicorn.conf.py lets lines of up to 8,190
# bytes through, so anything between the two gets the JSON 414 instead of gunicorn's HTML page.
MAX_TARGET_CHARS = 4096
# The shop's documents are 4 levels deep at most; Python's parser gives up near 1,000 with a RecursionError.
MAX_JSON_DEPTH = 32
# An integer literal longer than this is no quantity, id or price (Python refuses 4,300 digits itself).
MAX_INT_DIGITS = 100

_SURROGATE = re.compile("[\ud800-\udfff]")


class BodyRefused(ValueError):
    """A JSON body that parses but is not plain data the shop can store; `message` says why."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise BodyRefused(f"Numbers in the request body may have at most {MAX_INT_DIGITS} digits.")
    return int(text)


def _refuse_constant(name: str):
    raise BodyRefused(f"{name} is not a JSON number.")


def _check_plain(value) -> None:
    """No lone surrogate in any string or key (no database can store one), and no deep nesting."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise BodyRefused("Text in the request body must be valid Unicode (it has a lone surrogate).")
        elif isinstance(item, (dict, list)):
            if depth > MAX_JSON_DEPTH:
                raise BodyRefused("The request body is nested too deeply.")
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


def holds_nul(value) -> bool:
    """Whether any string or key in a parsed JSON document holds a NUL (PostgreSQL cannot store one)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def loads(text: str | bytes, **kwargs):
    """json.loads for request bodies: a malformed document raises ValueError, a refused one BodyRefused."""
    try:
        value = json.loads(text, parse_int=_parse_int, parse_constant=_refuse_constant, **kwargs)
    except RecursionError:
        raise BodyRefused("The request body is nested too deeply.") from None
    except BodyRefused:
        raise
    except ValueError as error:  # JSONDecodeError, or bytes that are not UTF-8
        raise ValueError(str(error)) from None
    _check_plain(value)
    return value


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON with the strict parser above; replies keep their fields in schema order."""

    sort_keys = False

    def loads(self, s: str | bytes, **kwargs):
        return loads(s, **kwargs)


class Request(FlaskRequest):
    """A body that is not JSON, or JSON the shop refuses, is a 400 in the envelope saying why."""

    def on_json_loading_failed(self, e: ValueError | None):
        if e is None:
            return super().on_json_loading_failed(e)  # not sent as JSON: 415
        if isinstance(e, BodyRefused):
            raise BadRequest(e.message)
        raise BadRequest("The request body is not valid JSON.")


def body_limit(max_bytes):
    """Mark a view whose requests may carry up to `max_bytes` (the default is DEFAULT_BODY_BYTES); a function
    is asked per request (a limit that is a setting)."""
    def mark(view):
        view.max_body_bytes = max_bytes
        return view
    return mark


def raw_body(view):
    """Mark a view that reads its body as bytes itself (a signed webhook): it is not parsed early."""
    view.raw_body = True
    return view


def _size(count: int) -> str:
    return f"{count // (1024 * 1024)} MB" if count >= 1024 * 1024 else f"{count // 1024} KB"


def _check_request() -> None:
    """Before any other reader: the address's length, the body's size for its route, and its JSON.

    :raise RequestURITooLarge: a path and query longer than MAX_TARGET_CHARS (414).
    :raise NotFound: an API path parameter holding a NUL (%00): no id or slug has one, and PostgreSQL cannot
        compare with one (404, before any view asks the database).
    :raise PayloadTooLarge: a body over the route's limit (413), refused before it is read.
    :raise BadRequest: a JSON body that is malformed or refused (400).
    """
    if len(request.path) + len(request.query_string) > MAX_TARGET_CHARS:
        raise RequestURITooLarge()
    if request.path.startswith("/api/") and request.view_args \
            and any(isinstance(value, str) and "\x00" in value for value in request.view_args.values()):
        raise NotFound("Not found.")  # pages (/book/<id>) answer their own 404 shell with noindex
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    limit = getattr(view, "max_body_bytes", DEFAULT_BODY_BYTES)
    limit = limit() if callable(limit) else limit
    request.max_content_length = limit  # werkzeug also stops a chunked body at this many bytes
    if request.content_length is not None and request.content_length > limit:
        raise PayloadTooLarge(f"The request is too large (at most {_size(limit)} here).")
    if getattr(view, "raw_body", False) or request.routing_exception is not None \
            or request.method not in ("POST", "PUT", "PATCH"):
        return  # its own refusal (404, 405) comes first; a GET's body is never read
    if request.is_json and (request.content_length or request.headers.get("Transfer-Encoding")):
        request.get_json()  # parsed once and kept; every later reader gets the same document


def register_request_input(app: Flask) -> None:
    """Use the strict JSON parser and request class, and check every request before the other hooks."""
    app.request_class = Request
    app.json = JSONProvider(app)
    app.before_request(_check_request)
