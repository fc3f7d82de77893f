"""Accounts: registration, sign-in, e-mail verification, passwords and profile changes."""
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from bookstore.errors import Conflict, Unauthorized, ValidationFailed
from bookstore.extensions import db
from bookstore.models import Order, User
from bookstore.services import account_links, account_mail, mail, sessions

LOGIN_FAILED = "Invalid email or password."
EMAIL_TAKEN = "An account with this e-mail already exists."
ADMIN_PASSWORD_MIN = 8  # as `flask create-admin` demands

# Checked against when the e-mail is unknown, so both failures take the same time.
_DUMMY_HASH = generate_password_hash("not-a-real-password")


def email_taken(email: str, except_user_id: int | None = None) -> bool:
    query = db.select(User.id).where(User.email == email.lower())
    if except_user_id is not None:
        query = query.where(User.id != except_user_id)
    return db.session.scalar(query) is not None


def _email_conflict() -> Conflict:
    return Conflict(EMAIL_TAKEN, errors={"email": ["Already registered."]})


def register_customer(*, email: str, password: str, first_name: str, last_name: str, phone: str | None) -> User:
    """Create a shopper account and e-mail its verification link. :raise Conflict: e-mail registered already."""
    if email_taken(email):
        raise _email_conflict()
    user = User(email=email.lower(), password_hash=generate_password_hash(password), first_name=first_name,
                last_name=last_name, phone=phone, role="customer", email_verified=False)
    db.session.add(user)
    try:
        db.session.flush()
    except IntegrityError:
        # Two registrations racing for one e-mail: the unique index decides.
        db.session.rollback()
        raise _email_conflict() from None
    account_mail.verify_email(user)
    db.session.commit()
    return user


def authenticate(email: str, password: str) -> User:
    """The account for these credentials. :raise Unauthorized: with one message for every failure."""
    user = db.session.scalar(db.select(User).where(User.email == email.lower()))
    if user is None or not user.password_hash:
        check_password_hash(_DUMMY_HASH, password)
        raise Unauthorized(LOGIN_FAILED)
    if not check_password_hash(user.password_hash, password):
        raise Unauthorized(LOGIN_FAILED)
    return user


def claim_guest_orders(user: User) -> None:
    """Guest orders placed with the account's (now proven) address become the account's orders."""
    db.session.execute(
        update(Order).where(Order.user_id.is_(None), Order.email == user.email)
        .values(user_id=user.id).execution_options(synchronize_session=False)
    )


def mark_verified(user: User) -> None:
    """The account's address is proven (by a link or by Google): record it and claim its guest orders."""
    user.email_verified = True
    claim_guest_orders(user)


def verify_email(raw_token: str) -> User:
    """Verify the address an e-mailed link was sent to. :raise ValidationFailed: bad, used or expired link."""
    user = account_links.redeem(raw_token, account_links.VERIFY_EMAIL)
    mark_verified(user)
    account_links.spend_outstanding(user, account_links.VERIFY_EMAIL)
    db.session.commit()
    return user


def resend_verification(user: User) -> None:
    """A fresh verification link. :raise Conflict: when the address is verified already."""
    if user.email_verified:
        raise Conflict("Your e-mail address is already verified.")
    account_mail.verify_email(user)
    db.session.commit()


def request_password_reset(email: str) -> None:
    """E-mail a reset link if the address has an account; the caller answers the same either way."""
    user = db.session.scalar(select(User).where(User.email == email.lower()))
    if user is not None:
        account_mail.reset_password(user)
        # The mail is sent by a job, so the answer's timing cannot tell which addresses have accounts.
        db.session.commit()


def _check_new_password(user: User, password: str, field: str) -> None:
    if user.is_admin and len(password) < ADMIN_PASSWORD_MIN:
        raise ValidationFailed({field: [f"An administrator's password must be {ADMIN_PASSWORD_MIN} to 128 "
                                        "characters long."]})


def _set_password(user: User, password: str) -> None:
    """New password, every existing session ended, the owner told."""
    user.password_hash = generate_password_hash(password)
    sessions.end_all(user)
    account_mail.password_changed(user)


def reset_password(raw_token: str, password: str) -> User:
    """Set a new password from an e-mailed link; ends every session and every other reset link.

    :raise ValidationFailed: bad, used or expired link, or a password too short for an administrator.
    """
    user = account_links.redeem(raw_token, account_links.RESET_PASSWORD)
    try:
        _check_new_password(user, password, "password")
    except ValidationFailed:
        db.session.rollback()  # the link stays usable for a valid password
        raise
    _set_password(user, password)
    account_links.spend_outstanding(user, account_links.RESET_PASSWORD)
    # The link reached the mailbox, which proves the address.
    if not user.email_verified:
        mark_verified(user)
    db.session.commit()
    return user


def change_password(user: User, current_password: str, new_password: str) -> User:
    """Change the password of a signed-in account; every session ends (the caller issues a new token).

    :raise ValidationFailed: 422 when the current password is wrong (not 401: the caller stays signed in)
        or the new one is the same.
    """
    if not user.password_hash:
        raise ValidationFailed({"currentPassword": [
            "This account has no password yet. Use 'Forgot password' to set one by e-mail."]})
    if not check_password_hash(user.password_hash, current_password):
        raise ValidationFailed({"currentPassword": ["Current password is incorrect."]})
    if new_password == current_password:
        raise ValidationFailed({"newPassword": ["The new password must be different from your current one."]})
    _check_new_password(user, new_password, "newPassword")
    _set_password(user, new_password)
    db.session.commit()
    return user


def update_profile(user: User, changes: dict) -> User:
    """Change names, phone, e-mail or delivery PIN; a new e-mail must be verified again. :raise Conflict: e-mail taken."""
    new_email = changes.pop("email", None)
    old_email = user.email
    email_changes = bool(new_email) and new_email != user.email
    if email_changes:
        if email_taken(new_email, except_user_id=user.id):
            raise _email_conflict()
        user.email = new_email
        user.email_verified = False
    for name in ("first_name", "last_name", "phone", "delivery_pin"):
        if name in changes:
            setattr(user, name, changes[name])
    if email_changes:
        account_mail.verify_email(user)
        account_mail.email_changed(user, old_email)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise _email_conflict() from None
    return user


def create_or_promote_admin(*, email: str, password: str, first_name: str, last_name: str) -> tuple[User, bool]:
    """Make an administrator account, or promote an existing one; returns (user, created)."""
    user = db.session.scalar(db.select(User).where(User.email == email.lower()))
    created = user is None
    if created:
        user = User(email=email.lower(), first_name=first_name, last_name=last_name)
        db.session.add(user)
    user.role = "admin"
    user.password_hash = generate_password_hash(password)
    user.email_verified = True
    if first_name:
        user.first_name = first_name
    if last_name:
        user.last_name = last_name
    db.session.commit()
    return user, created
