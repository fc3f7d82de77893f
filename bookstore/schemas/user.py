"""Account shapes: registration, login, profile."""
from marshmallow import Schema, ValidationError, fields, validate

from bookstore.schemas.common import ReplySchema, SuccessSchema
from bookstore.schemas.fields import (Email, IdString, IndianMobile, InputSchema, PartialUpdate, Trimmed, UtcDateTime,
                                      required, required_text, with_pin_pattern)
from bookstore.services import passwords
from bookstore.services.pin_directory import normalise as normalise_pin

PASSWORD_MIN, PASSWORD_MAX = 6, 128
PASSWORD_LENGTH = validate.Length(min=PASSWORD_MIN, max=PASSWORD_MAX,
                                  error="Password must be 6 to 128 characters long.")


def not_common(password: str) -> None:
    """A new password must not be a commonly used one (a wrong length has its own message)."""
    if PASSWORD_MIN <= len(password) <= PASSWORD_MAX and passwords.too_common(password):
        raise ValidationError(passwords.TOO_COMMON)


PASSWORD = [PASSWORD_LENGTH, not_common]


class RegisterSchema(InputSchema):
    firstName = required_text("First name", 100, attribute="first_name")
    lastName = required_text("Last name", 100, attribute="last_name")
    email = Email(required=True, error_messages=required("E-mail is required."))
    # Every character counts: no trimming of passwords.
    password = fields.String(required=True, validate=PASSWORD, error_messages=required("Password is required."))
    phone = IndianMobile(load_default=None, allow_none=True)


class LinkTokenSchema(InputSchema):
    """The token of an e-mailed link (/verify-email?token=...)."""

    token = fields.String(required=True, validate=validate.Length(min=1, max=200, error="The link is incomplete."),
                          error_messages=required("The link is incomplete."))


class ResetPasswordSchema(LinkTokenSchema):
    password = fields.String(required=True, validate=PASSWORD, error_messages=required("Password is required."))


class ForgotPasswordSchema(InputSchema):
    email = Email(required=True, error_messages=required("E-mail is required."))


class ChangePasswordSchema(InputSchema):
    currentPassword = fields.String(
        required=True, attribute="current_password", error_messages=required("Current password is required."),
        validate=validate.Length(min=1, max=128, error="Current password is required."))
    newPassword = fields.String(
        required=True, attribute="new_password", error_messages=required("New password is required."),
        validate=[validate.Length(min=PASSWORD_MIN, max=PASSWORD_MAX,
                                  error="New password must be 6 to 128 characters long."), not_common])


class LoginSchema(InputSchema):
    email = Email(required=True, error_messages=required("E-mail is required."))
    password = fields.String(required=True, validate=validate.Length(min=1, max=128, error="Password is required."),
                             error_messages=required("Password is required."))


class DeliveryPin(fields.String):
    """A 6-digit PIN code, spaces allowed ("560 001"), loaded as its digits."""

    def __init__(self, **kwargs):
        super().__init__(**with_pin_pattern(kwargs))

    def _deserialize(self, value, attr, data, **kwargs):
        pin = normalise_pin(super()._deserialize(value, attr, data, **kwargs))
        if pin is None:
            raise ValidationError("PIN code must be 6 digits and cannot start with 0.")
        return pin


class ProfileUpdateSchema(PartialUpdate, InputSchema):
    firstName = required_text("First name", 100, attribute="first_name")
    lastName = required_text("Last name", 100, attribute="last_name")
    email = Email()
    # Needed with a new e-mail address unless the shopper signed in within the last 10 minutes.
    currentPassword = fields.String(attribute="current_password", allow_none=True,
                                    validate=validate.Length(max=128))
    phone = IndianMobile(allow_none=True)
    # Set when a signed-in shopper checks a PIN on a book page; null forgets it.
    deliveryPin = DeliveryPin(attribute="delivery_pin", allow_none=True)


class UserSchema(Schema):
    _id = IdString(attribute="id")
    firstName = fields.String(attribute="first_name")
    lastName = fields.String(attribute="last_name")
    email = fields.String()
    phone = fields.String(allow_none=True)  # optional at sign-up
    role = fields.String()
    isVerified = fields.Boolean(attribute="email_verified")
    # A new address asked for in the profile, until its link is opened (the account keeps `email` until then).
    pendingEmail = fields.String(attribute="pending_email", allow_none=True)
    # False for accounts made by Google sign-in: the profile offers "set a password by e-mail" instead.
    hasPassword = fields.Function(lambda user: bool(user.password_hash))
    createdAt = UtcDateTime(attribute="created_at")
    deliveryPin = fields.String(attribute="delivery_pin", allow_none=True)


class AuthReplySchema(SuccessSchema):
    token = fields.String()
    user = fields.Nested(UserSchema)


class UserReplySchema(SuccessSchema):
    user = fields.Nested(UserSchema)


class ProvidersReplySchema(ReplySchema):
    google = fields.Boolean()


class CloseAccountSchema(InputSchema):
    """POST /api/auth/close-account: the password, or for an account without one (Google) the e-mail typed."""

    password = fields.String(load_default=None, allow_none=True, validate=validate.Length(max=128))
    confirmation = Trimmed(load_default=None, allow_none=True, max_length=254)
