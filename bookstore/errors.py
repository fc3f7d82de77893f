"""The API's error family and the one place that turns errors into the JSON envelope."""
import logging

from flask import Flask, jsonify, request
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, SecurityError

from bookstore.extensions import db

log = logging.getLogger(__name__)


class ApiError(Exception):
    """An error the API answers with `{"success": false, "message": ..., "errors"?: ...}`."""

    status = 400

    def __init__(self, message: str, status: int | None = None, errors: dict | None = None,
                 data: dict | None = None, headers: dict | None = None):
        super().__init__(message)
        self.message = message
        self.status = status or self.status
        self.errors = errors
        self.data = data or {}
        self.headers = headers or {}


def _status_error(name: str, status: int) -> type[ApiError]:
    """An ApiError that differs from the others by its HTTP status alone."""
    return type(name, (ApiError,), {"status": status, "__module__": __name__, "__qualname__": name,
                                    "__doc__": f"An API error answered with HTTP {status}."})


BadRequest = _status_error("BadRequest", 400)
Unauthorized = _status_error("Unauthorized", 401)
Forbidden = _status_error("Forbidden", 403)
NotFound = _status_error("NotFound", 404)
Conflict = _status_error("Conflict", 409)
PayloadTooLarge = _status_error("PayloadTooLarge", 413)


class ValidationFailed(ApiError):
    """422 with per-field messages; the first message doubles as the human-readable one."""

    status = 422

    def __init__(self, errors: dict, message: str | None = None, **kwargs):
        super().__init__(message or first_message(errors), errors=errors, **kwargs)


# Messages for werkzeug errors whose default texts are written for HTML pages.
_HTTP_MESSAGES = {
    400: "The request body is not valid JSON.",
    401: "Please sign in to continue.",
    403: "You are not allowed to do that.",
    404: "Not found.",
    405: "This method is not allowed here.",
    413: "The request is too large.",
    414: "The address of this request is too long.",
    415: "Send the request body as JSON.",
    429: "Too many attempts. Please wait and try again.",
}


def first_message(errors) -> str:
    """The first leaf message of a marshmallow error tree, prefixed by its field name."""
    if isinstance(errors, dict):
        for field, value in errors.items():
            inner = first_message(value)
            if field in ("_schema", "json", "query", "_root") or not isinstance(field, str):
                return inner
            return _with_field(_field_words(field), inner)
    if isinstance(errors, (list, tuple)) and errors:
        return first_message(errors[0])
    return str(errors) if errors else "Invalid input."


def _with_field(label: str, message: str) -> str:
    """Name the field in marshmallow's generic messages; the shop's own messages are sentences already."""
    if message in ("Missing data for required field.", "Field may not be null."):
        return f"{label} is required."
    for opening, joiner in (("Must ", " must "), ("Not a valid ", " is not a valid "), ("Length ", " length ")):
        if message.startswith(opening):
            return label + joiner + message[len(opening):]
    return message


def _field_words(field: str) -> str:
    words = "".join(" " + c.lower() if c.isupper() else c for c in field).strip()
    return words[:1].upper() + words[1:]


def _flatten_webargs(messages: dict) -> dict:
    """webargs nests errors under their location ({"json": {...}}); the client wants the fields."""
    flat: dict = {}
    for location_errors in messages.values():
        if isinstance(location_errors, dict):
            flat.update(location_errors)
        else:
            flat.setdefault("_schema", []).extend(location_errors)
    return flat


def envelope(message: str, status: int, errors=None, data=None, headers=None):
    body = {"success": False, "message": message}
    if errors:
        body["errors"] = errors
    if data:
        body.update(data)
    response = jsonify(body)
    response.status_code = status
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _wants_json() -> bool:
    return request.path == "/api" or request.path.startswith("/api/")


def handle_api_error(error: ApiError):
    return envelope(error.message, error.status, error.errors, error.data, error.headers)


def handle_http_exception(error: HTTPException):
    """werkzeug and flask-smorest errors: JSON under /api, the normal page elsewhere."""
    if not _wants_json():
        return error
    status = error.code or 500
    headers = dict(error.get_response().headers) if status in (405, 429) else {}
    headers.pop("Content-Type", None)
    headers.pop("Content-Length", None)
    if isinstance(error, SecurityError):
        # Flask refused the Host (or X-Forwarded-Host): it is neither PUBLIC_URL's nor in TRUSTED_HOSTS.
        return envelope("This shop does not answer to that host name.", 400)
    messages = (getattr(error, "data", None) or {}).get("messages")
    if status == 422 and messages:
        errors = _flatten_webargs(messages)
        if list(errors) == ["_schema"]:
            # A body of the wrong JSON type (a list, a string) is malformed, not invalid.
            return envelope("The request body must be a JSON object.", 400)
        return envelope(first_message(errors), 422, errors)
    if status == 400 and messages:
        return envelope(_HTTP_MESSAGES[400], 400)
    message = _HTTP_MESSAGES.get(status) or error.description or "Request failed."
    if status == 429:
        message = "Too many attempts. Please try again in a little while."
    return envelope(message, status, headers=headers)


# SQLite's "database is locked" after its busy timeout; PostgreSQL's lock_timeout, statement_timeout,
# serialization failure and deadlock. The work was rolled back and may simply be tried again.
_BUSY_SQLSTATES = {"55P03", "57014", "40001", "40P01"}
RETRY_AFTER_SECONDS = 2


def _database_busy(error: OperationalError) -> bool:
    if getattr(error.orig, "sqlstate", None) in _BUSY_SQLSTATES:
        return True
    return type(error.orig).__module__ == "sqlite3" and "locked" in str(error.orig)


def handle_database_error(error: OperationalError):
    """A database too busy to answer in time: 503 with Retry-After, nothing changed; anything else is unexpected."""
    if not _database_busy(error):
        return handle_unexpected(error)
    log.warning("Database busy on %s %s: %s", request.method, request.path, error.orig)
    db.session.rollback()
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)}
    if not _wants_json():
        return "The shop is busy. Please try again in a moment.", 503, headers
    return envelope("The shop is busy right now. Please try again in a moment.", 503, headers=headers)


def handle_unexpected(error: Exception):
    """Log it, undo any half-done work and answer without internals."""
    if isinstance(error, HTTPException):
        return handle_http_exception(error)
    log.exception("Unhandled error on %s %s", request.method, request.path)
    db.session.rollback()
    if not _wants_json():
        return "Internal Server Error", 500
    return envelope("Something went wrong on our side. Please try again.", 500)


def register_error_handlers(app: Flask) -> None:
    """Registered after flask-smorest so these handlers replace its HTTPException handler."""
    app.register_error_handler(ApiError, handle_api_error)
    app.register_error_handler(HTTPException, handle_http_exception)
    app.register_error_handler(OperationalError, handle_database_error)
    app.register_error_handler(Exception, handle_unexpected)
