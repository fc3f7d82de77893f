"""The request id of the work in hand: set per request, carried into the jobs it enqueues."""
import contextlib
import contextvars

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)


def current_request_id() -> str | None:
    """The id of the request (or job) this code runs for, if any."""
    return _request_id.get()


@contextlib.contextmanager
def bound_request_id(value: str | None):
    """Run a block under this request id (a job carrying the id of the request that enqueued it)."""
    token = _request_id.set(value)
    try:
        yield
    finally:
        _request_id.reset(token)
