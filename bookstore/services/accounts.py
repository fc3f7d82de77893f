"""Accounts: registration, sign-in and profile changes."""
from werkzeug.security import check_password_hash, generate_password_hash

from bookstore.errors import Conflict, Unauthorized
from bookstore.extensions import db
from bookstore.models import User

LOGIN_FAILED = "Invalid email or password."

# Checked against when the e-mail is unknown, so both failures take the same time.
_DUMMY_HASH = generate_password_hash("not-a-real-password")


def email_taken(email: str, except_user_id: int | None = None) -> bool:
    query = db.select(User.id).where(User.email == email.lower())
    if except_user_id is not None:
        query = query.where(User.id != except_user_id)
    return db.session.scalar(query) is not None


def register_customer(*, email: str, password: str, first_name: str, last_name: str, phone: str | None) -> User:
    """Create a shopper account. :raise Conflict: when the e-mail is registered already."""
    if email_taken(email):
        raise Conflict("An account with this e-mail already exists.", errors={"email": ["Already registered."]})
    user = User(email=email.lower(), password_hash=generate_password_hash(password), first_name=first_name,
                last_name=last_name, phone=phone, role="customer")
    db.session.add(user)
    try:
        db.session.commit()
    except Exception:
        # Two registrations racing for one e-mail: the unique index decides.
        db.session.rollback()
        if email_taken(email):
            raise Conflict("An account with this e-mail already exists.", errors={"email": ["Already registered."]})
        raise
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


def update_profile(user: User, changes: dict) -> User:
    """Change names, phone or e-mail; a new e-mail must be verified again."""
    new_email = changes.pop("email", None)
    if new_email and new_email != user.email:
        if email_taken(new_email, except_user_id=user.id):
            raise Conflict("An account with this e-mail already exists.", errors={"email": ["Already registered."]})
        user.email = new_email
        user.email_verified = False
    for name in ("first_name", "last_name", "phone"):
        if name in changes:
            setattr(user, name, changes[name])
    db.session.commit()
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
