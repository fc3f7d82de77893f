"""Contact form and newsletter shapes."""
from marshmallow import Schema, fields, validate

from bookstore.models import CONTACT_STATUSES, CONTACT_SUBJECTS
from bookstore.schemas.common import AdminPageQuerySchema, ReplySchema, SuccessSchema, counted_pagination
from bookstore.schemas.fields import Email, IdString, IndianMobile, InputSchema, UtcDateTime, required, required_text


class ContactSchema(InputSchema):
    name = required_text("Full name", 100)
    email = Email(required=True, error_messages=required("E-mail is required."))
    phone = IndianMobile(load_default=None, allow_none=True)
    subject = fields.String(required=True, error_messages=required("Subject is required."),
                            validate=validate.OneOf(CONTACT_SUBJECTS, error="Choose one of the listed subjects."))
    message = required_text("Message", 5000, min_length=10)


class ContactMessageSchema(Schema):
    _id = IdString(attribute="id")
    name = fields.String()
    email = fields.String()
    phone = fields.String(allow_none=True)
    subject = fields.String()
    message = fields.String()
    status = fields.String()
    createdAt = UtcDateTime(attribute="created_at")
    updatedAt = UtcDateTime(attribute="updated_at")


class NewsletterSchema(InputSchema):
    email = Email(required=True, error_messages=required("E-mail is required."))


class TokenSchema(InputSchema):
    token = fields.String(required=True, validate=validate.Length(min=1, max=64, error="The link is incomplete."),
                          error_messages=required("The link is incomplete."))


class UnsubscribeSchema(InputSchema):
    """The signed token of an unsubscribe link (GET /newsletter/unsubscribe?token=... shows the screen)."""

    token = fields.String(required=True, validate=validate.Length(min=1, max=200, error="The link is incomplete."),
                          error_messages=required("The link is incomplete."))


class OneClickQuerySchema(InputSchema):
    """RFC 8058's POST carries the token in the URL (its body is List-Unsubscribe=One-Click)."""

    token = fields.String(load_default="")


STATUS_MESSAGE = "Status must be one of: " + ", ".join(CONTACT_STATUSES) + "."


class ContactStatusSchema(InputSchema):
    status = fields.String(required=True, error_messages=required("Status is required."),
                           validate=validate.OneOf(CONTACT_STATUSES, error=STATUS_MESSAGE))


class ContactReceiptSchema(ContactMessageSchema):
    """What the sender gets back: the id and status, not their own message again."""

    class Meta:
        fields = ("_id", "status", "createdAt")


class ContactReplySchema(SuccessSchema):
    contact = fields.Nested(ContactReceiptSchema)


class ContactQuerySchema(AdminPageQuerySchema):
    status = fields.String(validate=validate.OneOf(CONTACT_STATUSES, error=STATUS_MESSAGE))


class ContactListReplySchema(ReplySchema):
    contacts = fields.List(fields.Nested(ContactMessageSchema))
    pagination = counted_pagination("ContactPaginationSchema", "totalContacts")


class ContactStatusReplySchema(SuccessSchema):
    contact = fields.Nested(ContactMessageSchema)
