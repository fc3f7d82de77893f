""""Notify me" alerts: ask on a book (guests confirm by e-mail), confirm or cancel from the mailed links,
and the signed-in shopper's own list."""
from flask import current_app

from bookstore.blueprint import Blueprint
from bookstore.extensions import limiter
from bookstore.schemas.alert import AlertInputSchema, AlertReplySchema, AlertTokenSchema, OwnAlertListReplySchema
from bookstore.schemas.common import SuccessSchema
from bookstore.security import current_user, login_required, optional_login
from bookstore.services import alerts

blp = Blueprint("alerts", __name__, url_prefix="/api", description="Alerts")


@blp.route("/books/<string:book_id>/alerts", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@optional_login
@blp.arguments(AlertInputSchema)
@blp.response(201, AlertReplySchema)
@blp.alt_response(200, schema=AlertReplySchema, description="The address already had this alert.")
def ask(data, book_id):
    """Ask to be e-mailed when the book is back in stock or a newer edition is added (201; 200 when asked
    before). A guest's alert is active once confirmed from the e-mailed link."""
    asked = alerts.ask(book_id, data["kind"], data["email"], current_user())
    return {"message": asked.message, "alert": asked.alert}, 201 if asked.created else 200


@blp.route("/alerts/confirm", methods=["POST"])
@blp.arguments(AlertTokenSchema)
@blp.response(200, AlertReplySchema)
def confirm(data):
    """Activate an alert from its confirmation link."""
    alert = alerts.confirm(data["token"])
    return {"message": "Thank you! Your alert is confirmed: we will e-mail you once, when it happens.",
            "alert": alert}


@blp.route("/alerts/cancel", methods=["POST"])
@blp.arguments(AlertTokenSchema)
@blp.response(200, SuccessSchema)
def cancel_by_link(data):
    """Cancel an alert from the link in its e-mail (again: still 200, nothing to cancel)."""
    cancelled = alerts.cancel_by_link(data["token"])
    return {"message": "Your alert is cancelled." if cancelled else "This alert was already cancelled."}


@blp.route("/alerts/mine", methods=["GET"])
@login_required
@blp.response(200, OwnAlertListReplySchema)
def mine():
    """The signed-in shopper's alerts, newest first."""
    return {"alerts": alerts.mine(current_user())}


@blp.route("/alerts/<string:alert_id>", methods=["DELETE"])
@login_required
@blp.response(200, SuccessSchema)
def cancel_own(alert_id):
    """Cancel one of the signed-in shopper's alerts."""
    alerts.cancel_own(current_user(), alert_id)
    return {"message": "Your alert is cancelled."}
