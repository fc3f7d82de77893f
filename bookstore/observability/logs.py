"""Log records as one JSON object a line in production and plain lines elsewhere, each with its request id.

`configure(app)` puts one handler on the root logger, so every library's records come out alike;
gunicorn's master calls `use_json_for_gunicorn` for its own error and access logs.
"""
import logging
import re
import sys
from collections.abc import Mapping
from datetime import datetime, timezone
from urllib.parse import parse_qsl, urlencode

from flask import Flask
from pythonjsonlogger.json import JsonFormatter

from bookstore.observability.context import current_request_id

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"
# Query parameters whose values are credentials (e-mailed links' tokens, OAuth codes and state).
SECRET_PARAMETERS = {"token", "code", "state", "password", "secret"}


# A download link's signature is the last segment of its path (api/downloads.py).
_SECRET_PATH = re.compile(r"(/api/downloads/)[^/?#\s\"]+")
_SECRET_PAIR = re.compile(r"(^|[?&;])(" + "|".join(sorted(SECRET_PARAMETERS)) + r")=[^&;#\s\"]*", re.IGNORECASE)


def redact(text: str) -> str:
    """A path, query, URL or request line with its credentials replaced: the signature of a download link
    and the values of SECRET_PARAMETERS (an order link's token, a reset link's)."""
    return _SECRET_PAIR.sub(r"\1\2=redacted", _SECRET_PATH.sub(r"\1redacted", text))


def redact_atoms(atoms: dict) -> dict:
    """gunicorn's access-log atoms with every text redacted: the request line, path, query, referer and the
    environ and header copies of them, whatever access_log_format picks."""
    return {key: redact(value) if isinstance(value, str) else value for key, value in atoms.items()}


def redact_query(query: str) -> str:
    """The query string with the values of SECRET_PARAMETERS replaced, for logs and error reports."""
    if not query:
        return query
    pairs = parse_qsl(query, keep_blank_values=True)
    return urlencode([(key, "redacted" if key.lower() in SECRET_PARAMETERS else value) for key, value in pairs])


class RequestIdFilter(logging.Filter):
    """Adds `request_id` to every record logged while a request (or a job it enqueued) is in hand."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = current_request_id()
        if request_id is not None and getattr(record, "request_id", None) is None:
            record.request_id = request_id
        return True


class _JsonFormatter(JsonFormatter):
    """time, level, logger, message, request_id (null outside a request), then any `extra` fields."""

    def __init__(self):
        super().__init__(["levelname", "name", "message", "request_id"],
                         rename_fields={"levelname": "level", "name": "logger"})

    def add_fields(self, log_data, record, message_dict):
        log_data["time"] = datetime.fromtimestamp(record.created, tz=timezone.utc).isoformat(timespec="milliseconds")
        super().add_fields(log_data, record, message_dict)


class AccessJsonFormatter(_JsonFormatter):
    """gunicorn's access records as fields: its logger passes the request's "atoms" as the record's args."""

    def add_fields(self, log_data, record, message_dict):
        super().add_fields(log_data, record, message_dict)
        atoms = record.args if isinstance(record.args, Mapping) else {}
        status = str(atoms.get("s", ""))
        log_data.update(
            message=f"{atoms.get('m')} {atoms.get('U')} {status}",
            method=atoms.get("m"),
            path=atoms.get("U"),
            query=redact_query(atoms.get("q") or "") or None,
            status=int(status) if status.isdigit() else status,
            bytes=atoms.get("B"),
            duration_ms=round(atoms["D"] / 1000, 3) if isinstance(atoms.get("D"), int) else None,
            remote_addr=atoms.get("h"),
            user_agent=atoms.get("a"),
            referer=atoms.get("f"),
            # The app echoes the id in the response header; gunicorn logs after the request's context is gone.
            request_id=atoms.get("{x-request-id}o"),
        )


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever sys.stderr is when a record arrives (test runners swap it), like logging's lastResort."""

    def __init__(self):
        logging.Handler.__init__(self)

    @property
    def stream(self):
        return sys.stderr


def text_formatter() -> logging.Formatter:
    """Readable lines for development and tests; `-` where no request is in hand."""
    return logging.Formatter(TEXT_FORMAT, defaults={"request_id": "-"})


def json_formatter() -> logging.Formatter:
    """One JSON object a line, for a log collector."""
    return _JsonFormatter()


def configure(app: Flask) -> None:
    """Send every logger's records to stderr in LOG_FORMAT, with request ids, from INFO up (tests keep
    Python's default, warnings and up, so background threads do not flood pytest's output).

    Each create_app replaces the handler the previous one installed (tests build many apps)."""
    handler = _StderrHandler()
    handler.set_name("bookstore")
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(json_formatter() if app.config["LOG_FORMAT"] == "json" else text_formatter())
    root = logging.getLogger()
    for old in [old for old in root.handlers if old.get_name() == "bookstore"]:
        root.removeHandler(old)
    root.addHandler(handler)
    if not app.testing and root.getEffectiveLevel() > logging.INFO:
        root.setLevel(logging.INFO)


def use_json_for_gunicorn(error_log: logging.Logger, access_log: logging.Logger) -> None:
    """Give gunicorn's own handlers (set up from its settings) the JSON formatters."""
    for handler in error_log.handlers:
        handler.setFormatter(json_formatter())
        handler.addFilter(RequestIdFilter())
    for handler in access_log.handlers:
        handler.setFormatter(AccessJsonFormatter())
