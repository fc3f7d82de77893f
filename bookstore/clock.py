"""What time it is for the shop's dated rules (bill numbers, order links): the real clock, or the app's
`CLOCK` setting (a function answering an aware datetime) so tests can stand on 31 March at 23:59 IST."""
from datetime import datetime

from flask import current_app, has_app_context

from bookstore.models.base import utcnow


def now() -> datetime:
    """The current moment (UTC, aware), from `CLOCK` when the app sets one."""
    clock = current_app.config.get("CLOCK") if has_app_context() else None
    return clock() if clock else utcnow()
