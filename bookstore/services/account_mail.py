"""The e-mails about an account: verify the address, reset the password, and security notices."""
from urllib.parse import urlencode

from bookstore.models import User
from bookstore.services import account_links, mail


def _link(user: User, purpose: str, email: str | None = None) -> str:
    """A new single-use link (to `email`, a pending new address, else the account's); the outbox keeps its
    seed, the token is made when the mail is sent."""
    seed = account_links.issue(user, purpose, email)
    return mail.shop_url(account_links.path(purpose, mail.token_placeholder("account", seed)))


def verify_email(user: User) -> None:
    """A new verification link (24 hours) to the account's current address."""
    link = _link(user, account_links.VERIFY_EMAIL)
    mail.queue(user.email, "Please verify your e-mail address",
               f"Hello {user.first_name},\n\nPlease confirm that this is your e-mail address by opening this link "
               f"within 24 hours:\n\n{link}\n\nIf you did not create a Bookstore account, ignore this e-mail.",
               kind=mail.CONFIRMATION)


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


def confirm_new_email(user: User) -> None:
    """A link (24 hours) to the pending new address: opening it makes that the account's address."""
    link = _link(user, account_links.VERIFY_EMAIL, user.pending_email)
    mail.queue(user.pending_email, "Please verify your new e-mail address",
               f"Hello {user.first_name},\n\nYou asked to use this address for your Bookstore account. Please "
               f"confirm it by opening this link within 24 hours:\n\n{link}\n\nUntil you do, your account keeps "
               "its current address. If you did not ask for this, ignore this e-mail.", kind=mail.CONFIRMATION)


def email_change_asked(user: User, new_email: str) -> None:
    """A notice to the account's address, with the signed "this wasn't me" link that undoes the change."""
    undo = mail.shop_url(account_links.undo_link(user, user.email, new_email))
    mail.queue(user.email, "Your Bookstore e-mail address is being changed",
               f"Hello {user.first_name},\n\nSomeone signed in to your Bookstore account asked to change its "
               f"e-mail address from {user.email} to {new_email}. The change is made once the new address is "
               "verified; until then you sign in and reset your password with this address.\n\n"
               f"If this wasn't you, open this link within {account_links.UNDO_EMAIL_CHANGE_DAYS} days. It keeps "
               f"(or gives back) this address and signs out every session of the account:\n\n{undo}")


def email_change_undone(user: User) -> None:
    """A confirmation to the restored address, with the way to a new password."""
    mail.queue(user.email, "Your Bookstore e-mail address was kept",
               f"Hello {user.first_name},\n\nYour Bookstore account keeps the address {user.email}, and every "
               "session was signed out. If someone may know your password, choose a new one: "
               f"{mail.shop_url('/forgot-password?' + urlencode({'email': user.email}))}")
