"""Prometheus metrics (being written: these hooks are what the services call)."""


def job_finished(name: str, outcome: str) -> None:
    """A job ended: outcome 'ok' or 'error'."""


def order_placed(payment_method: str) -> None:
    """An order was placed."""


def payment_recorded(source: str) -> None:
    """A payment was recorded as paid (verify, webhook or reconcile)."""
