"""The audit log of administrators' writes: who changed what, when, and the fields before and after.

`record` only adds the entry to the session: it is committed by the caller's transaction, together
with the change it describes, or not at all.
"""
from datetime import date, datetime

from sqlalchemy import select

from bookstore.extensions import db
from bookstore.models import AuditEntry, User
from bookstore.services.paging import Page, paginate


def json_safe(value):
    """Dates as ISO text, tuples as lists; everything else JSON already understands."""
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    return value


def changed_fields(before: dict | None, after: dict | None) -> tuple[dict | None, dict | None]:
    """Only the fields that differ, on each side (a whole side for creations and deletions)."""
    if before is None or after is None:
        return json_safe(before), json_safe(after)
    keys = [key for key in after if before.get(key) != after.get(key)]
    return json_safe({k: before.get(k) for k in keys}), json_safe({k: after[k] for k in keys})


def record(actor: User, action: str, entity_type: str, entity_id, before: dict | None = None,
           after: dict | None = None) -> AuditEntry:
    """Add an entry to the current transaction; commits with the change it describes."""
    old, new = changed_fields(before, after)
    entry = AuditEntry(actor_id=actor.id, actor_email=actor.email, action=action, entity_type=entity_type,
                       entity_id=str(entity_id), before=old, after=new)
    db.session.add(entry)
    return entry


def entries(page: int, limit: int, entity_type: str | None = None, entity_id: str | None = None) -> Page:
    """The log, newest first, optionally of one kind of thing or one thing."""
    statement = select(AuditEntry)
    if entity_type:
        statement = statement.where(AuditEntry.entity_type == entity_type)
    if entity_id:
        statement = statement.where(AuditEntry.entity_id == entity_id)
    return paginate(statement, page, limit, AuditEntry.created_at.desc(), AuditEntry.id.desc())
