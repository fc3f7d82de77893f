"""X-Request-ID: the caller's id when sane, else a new one; bound while a request runs, echoed on every response."""
import re
import uuid

from flask import Flask, g, request

from bookstore.observability.context import bound_request_id, current_request_id

HEADER = "X-Request-ID"
# A router's or client's id is kept only when it can neither forge log lines nor bloat them.
_SANE = re.compile(r"[A-Za-z0-9._-]{1,64}")


def from_header(value: str | None) -> str:
    """The incoming id when it is 1-64 characters of [A-Za-z0-9._-], else a fresh uuid4 hex."""
    if value and _SANE.fullmatch(value):
        return value
    return uuid.uuid4().hex


def _bind() -> None:
    binding = bound_request_id(from_header(request.headers.get(HEADER)))
    binding.__enter__()
    g._request_id_binding = binding


def _echo(response):
    request_id = current_request_id()
    if request_id:
        response.headers[HEADER] = request_id
    return response


def _unbind(_error) -> None:
    binding = g.pop("_request_id_binding", None)
    if binding is not None:
        binding.__exit__(None, None, None)


def register(app: Flask) -> None:
    """Bind before every other hook and echo after every other one, so a request refused by a guard
    or a rate limit carries its id too; unbind last, after the other teardowns have logged."""
    app.before_request_funcs.setdefault(None, []).insert(0, _bind)
    app.after_request_funcs.setdefault(None, []).insert(0, _echo)
    app.teardown_request_funcs.setdefault(None, []).insert(0, _unbind)
