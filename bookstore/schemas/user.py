"""Account shapes: registration, login, profile."""
from marshmallow import Schema, fields, validate

from bookstore.schemas.fields import Email, IdString, IndianMobile, InputSchema, Trimmed, UtcDateTime, required

PASSWORD = validate.Length(min=6, max=128, error="Password must be 6 to 128 characters long.")


class RegisterSchema(InputSchema):
    firstName = Trimmed(attribute="first_name", required=True, max_length=100,
                        error_messages=required("First name is required."), blank_message="First name is required.")
    lastName = Trimmed(attribute="last_name", required=True, max_length=100,
                       error_messages=required("Last name is required."), blank_message="Last name is required.")
    email = Email(required=True, error_messages=required("E-mail is required."))
    # Every character counts: no trimming of passwords.
    password = fields.String(required=True, validate=PASSWORD, error_messages=required("Password is required."))
    phone = IndianMobile(load_default=None, allow_none=True)


class LoginSchema(InputSchema):
    email = Email(required=True, error_messages=required("E-mail is required."))
    password = fields.String(required=True, validate=validate.Length(min=1, max=128, error="Password is required."),
                             error_messages=required("Password is required."))


class ProfileUpdateSchema(InputSchema):
    firstName = Trimmed(attribute="first_name", required=True, max_length=100,
                        error_messages=required("First name is required."), blank_message="First name is required.")
    lastName = Trimmed(attribute="last_name", required=True, max_length=100,
                       error_messages=required("Last name is required."), blank_message="Last name is required.")
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
