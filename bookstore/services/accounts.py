"""Accounts: registration, sign-in, e-mail verification, passwords and profile changes."""
from datetime import datetime, timedelta

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from bookstore import clock
from bookstore.errors import ApiError, Conflict, Unauthorized, ValidationFailed
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
    """Verify the address an e-mailed link was sent to; a link sent to a pending new address makes it the
    account's address. :raise ValidationFailed: bad, used or expired link. :raise Conflict: the new address was
    registered by another account meanwhile."""
    user, address = account_links.redeem_address(raw_token, account_links.VERIFY_EMAIL)
    if address != user.email:
        _take_pending_email(user)
    mark_verified(user)
    account_links.spend_outstanding(user, account_links.VERIFY_EMAIL)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise _email_conflict() from None
    return user


def _take_pending_email(user: User) -> None:
    """The verified new address replaces the old one; links sent to the old one stop working."""
    if email_taken(user.pending_email, except_user_id=user.id):
        db.session.rollback()  # the link stays unspent: nothing changes
        raise _email_conflict()
    user.email, user.pending_email = user.pending_email, None
    account_links.spend_outstanding(user, account_links.RESET_PASSWORD)


def resend_verification(user: User) -> str:
    """A fresh verification link to the pending new address, or else to the unverified account address;
    returns the address. :raise Conflict: nothing to verify. :raise ApiError: 429 past the address's cap."""
    if user.pending_email:
        _check_confirmation_cap(user.pending_email)
        account_mail.confirm_new_email(user)
    elif user.email_verified:
        raise Conflict("Your e-mail address is already verified.")
    else:
        _check_confirmation_cap(user.email)
        account_mail.verify_email(user)
    db.session.commit()
    return user.pending_email or user.email


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


# An e-mail change without the password needs a sign-in this recent (Google accounts have no password).
RECENT_SIGN_IN = timedelta(minutes=10)


def update_profile(user: User, changes: dict, signed_in_at: datetime | None = None) -> User:
    """Change names, phone or delivery PIN, and ask for a new e-mail address.

    A new address needs the current password (`current_password`) or a sign-in within RECENT_SIGN_IN; it only
    becomes the account's address once verified from the link mailed to it, and the current address is mailed
    a "this wasn't me" link (undo_email_change). Sending the current or the pending address changes nothing.
    :raise ValidationFailed: 422 on currentPassword. :raise Conflict: e-mail taken. :raise ApiError: 429 when
    the new address has had its hourly share of confirmation mails.
    """
    new_email = changes.pop("email", None)
    current_password = changes.pop("current_password", None)
    asks_new_email = bool(new_email) and new_email not in (user.email, user.pending_email)
    if asks_new_email:
        _prove_identity(user, current_password, signed_in_at)
        if email_taken(new_email, except_user_id=user.id):
            raise _email_conflict()
        _check_confirmation_cap(new_email)
    for name in ("first_name", "last_name", "phone", "delivery_pin"):
        if name in changes:
            setattr(user, name, changes[name])
    if asks_new_email:
        account_mail.email_change_asked(user, new_email)
        user.pending_email = new_email
        account_mail.confirm_new_email(user)
    db.session.commit()
    return user


def _prove_identity(user: User, password: str | None, signed_in_at: datetime | None) -> None:
    """The caller is the owner, not someone holding a stolen token: the password, or a fresh sign-in.

    :raise ValidationFailed: 422 on currentPassword, with `reason` wrong-password, password-required or
        recent-sign-in-required (an account without a password signs in again with Google).
    """
    if password:
        if user.password_hash and check_password_hash(user.password_hash, password):
            return
        message = ("Current password is incorrect." if user.password_hash else
                   "This account has no password. Sign in again with Google, then change the address within "
                   "10 minutes.")
        raise ValidationFailed({"currentPassword": [message]}, data={"reason": "wrong-password"})
    if signed_in_at is not None and clock.now() - signed_in_at <= RECENT_SIGN_IN:
        return
    if user.password_hash:
        raise ValidationFailed({"currentPassword": ["Enter your current password to change your e-mail address."]},
                               data={"reason": "password-required"})
    raise ValidationFailed({"currentPassword": [
        "For your safety, sign in again with Google, then change the address within 10 minutes."]},
        data={"reason": "recent-sign-in-required"})


def _check_confirmation_cap(address: str) -> None:
    """:raise ApiError: 429 when the address has had its hourly share of confirmation mails (mail.may_confirm)."""
    if not mail.may_confirm(address):
        db.session.rollback()
        raise ApiError(f"We have sent {address} several confirmation e-mails in the last hour. Please use one of "
                       "them, or try again later.", 429, headers={"Retry-After": "3600"})


def undo_email_change(raw_token: str) -> User:
    """The "this wasn't me" link mailed to the address being replaced: the account keeps (or gets back) that
    address, verified by the click, the pending change is dropped, and every session and outstanding link ends.

    :raise ValidationFailed: 422 on token (invalid or expired link, closed account). :raise Conflict: the old
        address was registered by another account meanwhile.
    """
    user_id, old_email, _new_email = account_links.undo_claims(raw_token)
    user = db.session.get(User, user_id)
    if user is None or user.closed_at is not None:
        raise ValidationFailed({"token": ["This account no longer exists."]}, data={"reason": "invalid"})
    if user.email != old_email:
        if email_taken(old_email, except_user_id=user.id):
            raise Conflict(f"{old_email} now belongs to another account. Please write to us to get your account "
                           "back.")
        user.email = old_email
    user.pending_email = None
    mark_verified(user)  # the link reached this mailbox
    sessions.end_all(user)
    account_links.spend_outstanding(user, account_links.VERIFY_EMAIL)
    account_links.spend_outstanding(user, account_links.RESET_PASSWORD)
    account_mail.email_change_undone(user)
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
