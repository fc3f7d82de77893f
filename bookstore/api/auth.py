"""Sign-up, sign-in and the signed-in shopper's profile."""
from flask import current_app, request
from flask_smorest import Blueprint
from marshmallow import Schema, fields

from bookstore.extensions import client_ip, limiter
from bookstore.schemas.user import LoginSchema, ProfileUpdateSchema, RegisterSchema, UserSchema
from bookstore.security import current_user, issue_token, login_required
from bookstore.services import accounts

blp = Blueprint("auth", __name__, url_prefix="/api/auth", description="Accounts")


class AuthReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    token = fields.String()
    user = fields.Nested(UserSchema)


class UserReplySchema(Schema):
    success = fields.Constant(True)
    message = fields.String()
    user = fields.Nested(UserSchema)


def _login_email_key() -> str:
    """Failed logins are also counted per e-mail, so one account cannot be guessed from many IPs."""
    body = request.get_json(silent=True)
    email = body.get("email") if isinstance(body, dict) else None
    return "login-email:" + (email.strip().lower() if isinstance(email, str) else client_ip())


@blp.route("/register", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(RegisterSchema)
@blp.response(201, AuthReplySchema)
def register(data):
    """Create a shopper account and sign it in."""
    user = accounts.register_customer(**data)
    return {"message": "Registration successful", "token": issue_token(user), "user": user}


@blp.route("/login", methods=["POST"])
@limiter.limit(lambda: current_app.config["LOGIN_LIMIT_PER_IP"])
@limiter.limit(lambda: current_app.config["LOGIN_FAILURES_PER_EMAIL"], key_func=_login_email_key,
               deduct_when=lambda response: response.status_code == 401)
@blp.arguments(LoginSchema)
@blp.response(200, AuthReplySchema)
def login(data):
    """Exchange e-mail and password for a token (shoppers and administrators alike)."""
    user = accounts.authenticate(data["email"], data["password"])
    return {"message": "Login successful", "token": issue_token(user), "user": user}


@blp.route("/profile", methods=["GET"])
@login_required
@blp.response(200, UserReplySchema)
def get_profile():
    """The signed-in account."""
    return {"user": current_user()}


@blp.route("/profile", methods=["PUT"])
@login_required
@blp.arguments(ProfileUpdateSchema(partial=True))
@blp.response(200, UserReplySchema)
def update_profile(data):
    """Change names, phone or e-mail of the signed-in account."""
    user = accounts.update_profile(current_user(), data)
    return {"message": "Profile updated", "user": user}
