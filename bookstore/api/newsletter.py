"""Newsletter sign-up (double opt-in)."""
from flask import current_app
from flask_smorest import Blueprint

from bookstore.extensions import limiter
from bookstore.schemas.common import SuccessSchema
from bookstore.schemas.contact import NewsletterSchema, TokenSchema
from bookstore.services import newsletter

blp = Blueprint("newsletter", __name__, url_prefix="/api/newsletter", description="Newsletter")


@blp.route("", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(NewsletterSchema)
@blp.response(202, SuccessSchema)
def subscribe(data):
    """Record a sign-up; the address counts once confirmed from the e-mailed link."""
    newsletter.subscribe(data["email"])
    return {"message": "Almost done: please confirm the subscription from the e-mail we sent you."}


@blp.route("/confirm", methods=["POST"])
@blp.arguments(TokenSchema)
@blp.response(200, SuccessSchema)
def confirm(data):
    """Confirm a subscription from the e-mailed link's token."""
    newsletter.confirm(data["token"])
    return {"message": "Thank you! Your subscription is confirmed."}
