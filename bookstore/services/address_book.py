"""A shopper's saved delivery addresses: at most MAX_ADDRESSES, at most one default.

The first address saved becomes the default; deleting the default makes the most recently changed of the others
the default (none when it was the last). Each verb is one transaction; the account's row is locked first
(PostgreSQL), so two additions at once cannot pass the limit together.
"""
from sqlalchemy import func, select, update

from bookstore.errors import Conflict, NotFound
from bookstore.extensions import db
from bookstore.models import MAX_ADDRESSES, SavedAddress, User
from bookstore.services.rows import by_id

FULL = (f"You can save up to {MAX_ADDRESSES} addresses. Delete one you no longer use to save another.")


def addresses(user: User) -> list[SavedAddress]:
    """The account's addresses, the default first, then the most recently changed."""
    return list(db.session.scalars(
        select(SavedAddress).where(SavedAddress.user_id == user.id)
        .order_by(SavedAddress.is_default.desc(), SavedAddress.updated_at.desc(), SavedAddress.id.desc())))


def _lock(user: User) -> None:
    db.session.execute(select(User.id).where(User.id == user.id).with_for_update())


def _own(user: User, address_id: str) -> SavedAddress:
    """:raise NotFound: unknown ids and other accounts' addresses alike."""
    address = by_id(SavedAddress, address_id)
    if address is None or address.user_id != user.id:
        raise NotFound("Address not found.")
    return address


def _make_default(user: User, address: SavedAddress) -> None:
    # The old default is cleared first, so the partial unique index never sees two.
    db.session.execute(update(SavedAddress).where(SavedAddress.user_id == user.id, SavedAddress.id != address.id,
                                                  SavedAddress.is_default.is_(True))
                       .values(is_default=False).execution_options(synchronize_session="fetch"))
    address.is_default = True


def add(user: User, data: dict) -> SavedAddress:
    """Save a new address (the default when asked, or when it is the first). :raise Conflict: the book is full."""
    _lock(user)
    held = db.session.scalar(select(func.count()).select_from(SavedAddress).where(SavedAddress.user_id == user.id))
    if held >= MAX_ADDRESSES:
        db.session.rollback()
        raise Conflict(FULL)
    wants_default = data.pop("is_default", None)
    address = SavedAddress(user_id=user.id, is_default=False, **data)
    db.session.add(address)
    db.session.flush()
    if wants_default or held == 0:
        _make_default(user, address)
    db.session.commit()
    return address


def change(user: User, address_id: str, data: dict) -> SavedAddress:
    """Change an address's fields (those sent); isDefault true makes it the default, false unsets it."""
    _lock(user)
    address = _own(user, address_id)
    wants_default = data.pop("is_default", None)
    for name, value in data.items():
        setattr(address, name, value)
    if wants_default:
        _make_default(user, address)
    elif wants_default is False:
        address.is_default = False
    db.session.commit()
    return address


def remove(user: User, address_id: str) -> None:
    """Delete an address; when it was the default, the most recently changed other one becomes the default."""
    _lock(user)
    address = _own(user, address_id)
    was_default = address.is_default
    db.session.delete(address)
    db.session.flush()
    if was_default:
        successor = db.session.scalar(
            select(SavedAddress).where(SavedAddress.user_id == user.id)
            .order_by(SavedAddress.updated_at.desc(), SavedAddress.id.desc()).limit(1))
        if successor is not None:
            successor.is_default = True
    db.session.commit()
