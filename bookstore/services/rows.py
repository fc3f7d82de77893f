"""Finding a row by the id the API shows: digits only, within range, else no row (never a database error)."""
from bookstore.extensions import db
from bookstore.models import parse_id


def by_id(model, text: str, **options):
    """The `model` row whose id `text` names, or None for an unknown or malformed id (`options`: session.get's)."""
    key = parse_id(text)
    return db.session.get(model, key, **options) if key else None
