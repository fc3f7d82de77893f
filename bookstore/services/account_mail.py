"""The e-mails about an account: verify the address, reset the password, and security notices."""
from urllib.parse import urlencode

from bookstore.models import User
from bookstore.services import account_links, mail


def _link(user: User, purpose: str) -> str:
    """A new single-use link; the outbox keeps its seed, the token is made when the mail is sent."""
    seed = account_links.issue(user, purpose)
    return mail.shop_url(account_links.path(purpose, mail.token_placeholder("account", seed)))


def verify_email(user: User) -> None:
    """A new verification link (24 hours) to the account's current address."""
    link = _link(user, account_links.VERIFY_EMAIL)
    mail.queue(user.email, "Please verify your e-mail address",
               f"Hello {user.first_name},\n\nPlease confirm that this is your e-mail address by opening this link "
               f"within 24 hours:\n\n{link}\n\nIf you did not create a Bookstore account, ignore this e-mail.")


def reset_password(user: User) -> None:
    """A password-reset link (1 hour, single use)."""
    link = _link(user, account_links.RESET_PASSWORD)
    mail.queue(user.email, "Reset your Bookstore password",
               f"Hello {user.first_name},\n\nSomeone (we hope you) asked to reset the password of your Bookstore "
               f"account. Choose a new password within 1 hour here:\n\n{link}\n\n"
               "If it was not you, ignore this e-mail: your password stays as it is.")


def password_changed(user: User) -> None:
    """A notice, so the owner learns of a change they did not make."""
    mail.queue(user.email, "Your Bookstore password was changed",
               f"Hello {user.first_name},\n\nThe password of your Bookstore account was just changed and every "
               "other session was signed out.\n\nIf this was not you, reset your password at once: "
               f"{mail.shop_url('/forgot-password?' + urlencode({'email': user.email}))}")


def email_changed(user: User, old_email: str) -> None:
    """A notice to the previous address, which no longer receives the account's e-mails."""
    mail.queue(old_email, "Your Bookstore e-mail address was changed",
               f"Hello {user.first_name},\n\nThe e-mail address of your Bookstore account was changed from "
               f"{old_email} to {user.email}.\n\nIf this was not you, please write to us: "
               f"{mail.shop_url('/contact')}")
