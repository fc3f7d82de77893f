"""The contact form (public) and the administrators' inbox of its messages."""
from flask import current_app
from flask_smorest import Blueprint
from marshmallow import Schema, fields, validate

from bookstore.extensions import limiter
from bookstore.models import CONTACT_STATUSES
from bookstore.schemas.book import PageQuerySchema
from bookstore.schemas.common import PaginationSchema
from bookstore.schemas.contact import STATUS_MESSAGE, ContactMessageSchema, ContactSchema, ContactStatusSchema
from bookstore.security import admin_only, current_user
from bookstore.services import contact

blp = Blueprint("contact", __name__, url_prefix="/api/contact", description="Contact messages")


class ContactReceiptSchema(ContactMessageSchema):
    """What the sender gets back: the id and status, not their own message again."""

    class Meta:
        fields = ("_id", "status", "createdAt")


class ContactReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    contact = fields.Nested(ContactReceiptSchema)


@blp.route("", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(ContactSchema)
@blp.response(201, ContactReplySchema)
def send_message(data):
    """Store a message for the shop's team."""
    saved = contact.receive_message(**data)
    return {"message": "Thank you for your message! We will get back to you soon.", "contact": saved}


class ContactQuerySchema(PageQuerySchema):
    limit = fields.Integer(load_default=10, validate=validate.Range(min=1, error="Limit must be 1 or more."))
    status = fields.String(validate=validate.OneOf(CONTACT_STATUSES, error=STATUS_MESSAGE))


class ContactPaginationSchema(PaginationSchema):
    totalContacts = fields.Integer()


class ContactListReplySchema(Schema):
    success = fields.Constant(True)
    contacts = fields.List(fields.Nested(ContactMessageSchema))
    pagination = fields.Nested(ContactPaginationSchema)


class ContactStatusReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    contact = fields.Nested(ContactMessageSchema)


@blp.route("", methods=["GET"])
@admin_only
@blp.arguments(ContactQuerySchema, location="query")
@blp.response(200, ContactListReplySchema)
def list_messages(query):
    """Administrators: the messages, newest first, 10 a page, optionally of one status."""
    page = contact.list_messages(query["page"], query["limit"], query.get("status"))
    return {"contacts": page.items, "pagination": {"page": page.page, "limit": page.limit, "total": page.total,
                                                   "totalContacts": page.total, "totalPages": page.total_pages}}


@blp.route("/<string:message_id>/status", methods=["PUT"])
@admin_only
@blp.arguments(ContactStatusSchema)
@blp.response(200, ContactStatusReplySchema)
def change_status(data, message_id):
    """Administrators: mark a message new, in-progress or resolved."""
    return {"message": "Status updated.", "contact": contact.change_status(message_id, data["status"], current_user())}
