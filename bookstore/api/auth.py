"""Sign-up, sign-in, sign-out, e-mail verification, passwords and the signed-in shopper's profile."""
from flask import after_this_request, current_app, request
from flask_jwt_extended import get_jwt

from bookstore import device_cookie
from bookstore.blueprint import Blueprint
from bookstore.extensions import client_ip, limiter
from bookstore.schemas.common import SuccessSchema
from bookstore.schemas.user import (AuthReplySchema, ChangePasswordSchema, CloseAccountSchema, ForgotPasswordSchema, LinkTokenSchema,
                                    LoginSchema, ProfileUpdateSchema, ProvidersReplySchema, RegisterSchema,
                                    ResetPasswordSchema, UserReplySchema)
from bookstore.security import current_user, issue_token, login_required, signed_in_at
from bookstore.services import account_closing, accounts, google_signin, sessions

blp = Blueprint("auth", __name__, url_prefix="/api/auth", description="Accounts")


def _body_email_key(prefix: str) -> str:
    body = request.get_json(silent=True)
    email = body.get("email") if isinstance(body, dict) else None
    return prefix + (email.strip().lower() if isinstance(email, str) else client_ip())


def _account_key(prefix: str) -> str:
    """Per signed-in account; login_required runs first, so the token is verified here."""
    return prefix + str(get_jwt().get("sub", client_ip()))


def _failed_attempts_limit(prefix: str):
    """Wrong passwords (422) of the signed-in account, counted per account against LOGIN_FAILURES_PER_EMAIL."""
    return limiter.limit(lambda: current_app.config["LOGIN_FAILURES_PER_EMAIL"], key_func=lambda: _account_key(prefix),
                         deduct_when=lambda response: response.status_code == 422)


def _login_email() -> str | None:
    body = request.get_json(silent=True)
    email = body.get("email") if isinstance(body, dict) else None
    return email.strip().lower() if isinstance(email, str) else None


def _login_email_key() -> str:
    """Failed logins are also counted per e-mail, so one account cannot be guessed from many IPs."""
    return "login-email:" + (_login_email() or client_ip())


def _trusted_device() -> bool:
    """The browser holds a valid device cookie for the account it tries (see device_cookie)."""
    return device_cookie.trusted_nonce(_login_email()) is not None


def _login_device_key() -> str:
    return "login-device:" + (device_cookie.trusted_nonce(_login_email()) or "")


def _failed(response) -> bool:
    return response.status_code == 401


@blp.route("/register", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(RegisterSchema)
@blp.response(201, AuthReplySchema)
def register(data):
    """Create a shopper account and sign it in."""
    user = accounts.register_customer(**data)
    return {"message": "Registration successful. Please check your e-mail to verify your account.",
            "token": issue_token(user), "user": user}


@blp.route("/login", methods=["POST"])
@limiter.limit(lambda: current_app.config["LOGIN_LIMIT_PER_IP"])
# Failures count per e-mail, or, from a browser with the account's device cookie, for that cookie alone.
@limiter.limit(lambda: current_app.config["LOGIN_FAILURES_PER_EMAIL"], key_func=_login_email_key,
               exempt_when=_trusted_device, deduct_when=_failed)
@limiter.limit(lambda: current_app.config["LOGIN_FAILURES_PER_DEVICE"], key_func=_login_device_key,
               exempt_when=lambda: not _trusted_device(), deduct_when=_failed)
@blp.arguments(LoginSchema)
@blp.response(200, AuthReplySchema)
def login(data):
    """Exchange e-mail and password for a token (shoppers and administrators alike); the browser also gets
    a fresh device cookie for the account."""
    user = accounts.authenticate(data["email"], data["password"])
    after_this_request(lambda response: device_cookie.remember(response, user))
    return {"message": "Login successful", "token": issue_token(user), "user": user}


@blp.route("/profile", methods=["GET"])
@login_required
@blp.response(200, UserReplySchema)
def get_profile():
    """The signed-in account."""
    return {"user": current_user()}


def _wrong_current_password(response) -> bool:
    """A 422 about the current password (not a bad name or phone): what a token thief guessing would get."""
    body = response.get_json(silent=True) if response.status_code == 422 else None
    return isinstance(body, dict) and "currentPassword" in (body.get("errors") or {})


@blp.route("/profile", methods=["PUT"])
@login_required
@limiter.limit(lambda: current_app.config["LOGIN_FAILURES_PER_EMAIL"], key_func=lambda: _account_key("profile:"),
               deduct_when=_wrong_current_password)
@blp.arguments(ProfileUpdateSchema(partial=True))
@blp.response(200, UserReplySchema)
def update_profile(data):
    """Change names, phone or delivery PIN; a new e-mail (current password, or a sign-in in the last 10 minutes)
    is pending until verified from the link mailed to it, and the current address gets a "this wasn't me" link."""
    asked = data.get("email")
    user = accounts.update_profile(current_user(), data, signed_in_at(get_jwt()))
    message = (f"Profile updated. Please open the link we sent to {user.pending_email} to start using it."
               if asked and asked == user.pending_email else "Profile updated")
    return {"message": message, "user": user}


@blp.route("/undo-email-change", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@blp.arguments(LinkTokenSchema)
@blp.response(200, UserReplySchema)
def undo_email_change(data):
    """The "this wasn't me" link of an e-mail change: keep the old address and end every session (7 days)."""
    user = accounts.undo_email_change(data["token"])
    return {"message": f"Your account keeps the address {user.email}, and every session was signed out. If "
                       "someone may know your password, choose a new one now.", "user": user}


@blp.route("/logout", methods=["POST"])
@login_required
@blp.response(200, SuccessSchema)
def logout():
    """End this session: the token is refused from now on (other sessions stay)."""
    sessions.revoke(get_jwt())
    return {"message": "Signed out"}


@blp.route("/verify-email", methods=["POST"])
@blp.arguments(LinkTokenSchema)
@blp.response(200, UserReplySchema)
def verify_email(data):
    """Verify the e-mail address from the e-mailed link's token (single use, 24 hours)."""
    user = accounts.verify_email(data["token"])
    return {"message": "Thank you! Your e-mail address is verified.", "user": user}


@blp.route("/resend-verification", methods=["POST"])
@login_required
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@limiter.limit(lambda: current_app.config["ACCOUNT_MAIL_LIMIT"], key_func=lambda: _account_key("resend:"))
@blp.response(202, SuccessSchema)
def resend_verification():
    """E-mail a new verification link to the signed-in account's address."""
    address = accounts.resend_verification(current_user())
    return {"message": f"We have sent a new verification link to {address}."}


@blp.route("/forgot-password", methods=["POST"])
@limiter.limit(lambda: current_app.config["FORM_LIMIT_PER_IP"])
@limiter.limit(lambda: current_app.config["ACCOUNT_MAIL_LIMIT"], key_func=lambda: _body_email_key("forgot:"))
@blp.arguments(ForgotPasswordSchema)
@blp.response(202, SuccessSchema)
def forgot_password(data):
    """E-mail a password-reset link; the answer is the same whether the address has an account or not."""
    accounts.request_password_reset(data["email"])
    return {"message": "If an account exists for that address, we have e-mailed it a link to reset the "
                       "password. The link works for 1 hour."}


@blp.route("/reset-password", methods=["POST"])
@blp.arguments(ResetPasswordSchema)
@blp.response(200, SuccessSchema)
def reset_password(data):
    """Set a new password from the e-mailed link (single use, 1 hour); every session of the account ends."""
    accounts.reset_password(data["token"], data["password"])
    return {"message": "Your password has been changed. Please sign in with your new password."}


@blp.route("/password", methods=["PUT"])
@login_required
@_failed_attempts_limit("password:")
@blp.arguments(ChangePasswordSchema)
@blp.response(200, AuthReplySchema)
def change_password(data):
    """Change the password (current one required); other sessions end, this one gets a fresh token."""
    user = accounts.change_password(current_user(), data["current_password"], data["new_password"])
    return {"message": "Your password has been changed.", "token": issue_token(user), "user": user}


@blp.route("/close-account", methods=["POST"])
@login_required
@_failed_attempts_limit("close:")
@blp.arguments(CloseAccountSchema)
@blp.response(200, SuccessSchema)
def close_account(data):
    """Close the account (password, or the e-mail typed for a Google account): personal data erased, orders kept,
    every session ended; a confirmation is e-mailed."""
    account_closing.close(current_user(), data["password"], data["confirmation"])
    return {"message": "Your account is closed. We have e-mailed you a confirmation."}


@blp.route("/providers", methods=["GET"])
@blp.response(200, ProvidersReplySchema)
def providers():
    """Which external sign-ins are configured, so the client shows only working buttons."""
    return {"google": google_signin.configured()}
