"""The contact form (public) and the administrators' inbox of its messages."""
from flask import current_app

from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.schemas.common import pagination
from bookstore.schemas.contact import (ContactListReplySchema, ContactQuerySchema, ContactReplySchema, ContactSchema,
                                       ContactStatusReplySchema, ContactStatusSchema)
from bookstore.security import admin_only, current_user
from bookstore.services import contact

blp = Blueprint("contact", __name__, url_prefix="/api/contact", description="Contact messages")


@blp.route("", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(ContactSchema)
@blp.response(201, ContactReplySchema)
def send_message(data):
    """Store a message for the shop's team."""
    saved = contact.receive_message(**data)
    return {"message": "Thank you for your message! We will get back to you soon.", "contact": saved}


@blp.route("", methods=["GET"])
@admin_only
@blp.arguments(ContactQuerySchema, location="query")
@blp.response(200, ContactListReplySchema)
def list_messages(query):
    """Administrators: the messages, newest first, 10 a page, optionally of one status."""
    page = contact.list_messages(query["page"], query["limit"], query.get("status"))
    return {"contacts": page.items, "pagination": pagination(page, "totalContacts")}


@blp.route("/<string:message_id>/status", methods=["PUT"])
@admin_only
@blp.arguments(ContactStatusSchema)
@blp.response(200, ContactStatusReplySchema)
def change_status(data, message_id):
    """Administrators: mark a message new, in-progress or resolved."""
    return {"message": "Status updated.", "contact": contact.change_status(message_id, data["status"], current_user())}
