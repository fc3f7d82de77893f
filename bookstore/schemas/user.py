"""Account shapes: registration, login, profile."""
from marshmallow import Schema, fields, validate

from bookstore.schemas.fields import Email, IdString, IndianMobile, InputSchema, UtcDateTime, required, required_text

PASSWORD = validate.Length(min=6, max=128, error="Password must be 6 to 128 characters long.")


class RegisterSchema(InputSchema):
    firstName = required_text("First name", 100, attribute="first_name")
    lastName = required_text("Last name", 100, attribute="last_name")
    email = Email(required=True, error_messages=required("E-mail is required."))
    # Every character counts: no trimming of passwords.
    password = fields.String(required=True, validate=PASSWORD, error_messages=required("Password is required."))
    phone = IndianMobile(load_default=None, allow_none=True)


class LoginSchema(InputSchema):
    email = Email(required=True, error_messages=required("E-mail is required."))
    password = fields.String(required=True, validate=validate.Length(min=1, max=128, error="Password is required."),
                             error_messages=required("Password is required."))


class ProfileUpdateSchema(InputSchema):
    firstName = required_text("First name", 100, attribute="first_name")
    lastName = required_text("Last name", 100, attribute="last_name")
    email = Email()
    phone = IndianMobile(allow_none=True)


class UserSchema(Schema):
    _id = IdString(attribute="id")
    firstName = fields.String(attribute="first_name")
    lastName = fields.String(attribute="last_name")
    email = fields.String()
    phone = fields.String()
    role = fields.String()
    isVerified = fields.Boolean(attribute="email_verified")
    createdAt = UtcDateTime(attribute="created_at")
