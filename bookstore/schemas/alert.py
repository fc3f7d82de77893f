""""Notify me" alerts: what a shopper asks for, the signed links' tokens, and the alerts a shopper sees."""
from marshmallow import Schema, fields, validate

from bookstore.schemas.common import ReplySchema, SuccessSchema
from bookstore.models import ALERT_KINDS
from bookstore.schemas.fields import Email, IdString, InputSchema, UtcDateTime, required

KIND_MESSAGE = "Kind must be one of: " + ", ".join(ALERT_KINDS) + "."


class AlertInputSchema(InputSchema):
    """A new alert: its kind, and the guest's address (a signed-in shopper is told at the account's)."""

    kind = fields.String(required=True, error_messages=required("Kind is required."),
                         validate=validate.OneOf(ALERT_KINDS, error=KIND_MESSAGE))
    email = Email(load_default=None, allow_none=True)


class AlertTokenSchema(InputSchema):
    """The token of an e-mailed confirm or cancel link."""

    token = fields.String(required=True, validate=validate.Length(min=1, max=300, error="The link is incomplete."),
                          error_messages=required("The link is incomplete."))


def _status(alert) -> str:
    if alert.confirmed_at is None:
        return "pending"
    return "sent" if alert.sent_at is not None else "active"


class AlertSchema(Schema):
    _id = IdString(attribute="id")
    bookId = IdString(attribute="book_id")
    kind = fields.String()
    status = fields.Function(_status, metadata={"description": "pending (to be confirmed), active or sent"})
    createdAt = UtcDateTime(attribute="created_at")


class AlertReplySchema(SuccessSchema):
    alert = fields.Nested(AlertSchema)


class OwnAlertSchema(AlertSchema):
    bookTitle = fields.String(attribute="book.title")


class OwnAlertListReplySchema(ReplySchema):
    alerts = fields.List(fields.Nested(OwnAlertSchema))
