"""The contact form."""
from flask import current_app
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from bookstore.extensions import limiter
from bookstore.schemas.contact import ContactMessageSchema, ContactSchema
from bookstore.services import contact

blp = Blueprint("contact", __name__, url_prefix="/api/contact", description="Contact messages")


class ContactReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    contact = fields.Nested(ContactMessageSchema(only=("_id", "status", "createdAt")))


@blp.route("", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(ContactSchema)
@blp.response(201, ContactReplySchema)
def send_message(data):
    """Store a message for the shop's team."""
    saved = contact.receive_message(**data)
    return {"message": "Thank you for your message! We will get back to you soon.", "contact": saved}
