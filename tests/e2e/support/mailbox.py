"""E-mails the served shop sent to the SMTP sink, and the links in them."""
import re
from urllib.parse import urlsplit


def wait_for_mail(page, smtp, address: str, subject: str | None = None, after: int = 0):
    """The newest e-mail to `address` (whose subject contains `subject`), among those after index `after`.

    Mail goes out after the response (or just after the commit), so it is waited for, up to 5 s.
    """
    for _ in range(50):
        found = [message for message in smtp.messages[after:]
                 if message["To"] == address and (subject is None or subject in message["Subject"])]
        if found:
            return found[-1]
        page.wait_for_timeout(100)
    raise AssertionError(f"no e-mail {subject or ''!r} reached {address}; the sink holds "
                         f"{[(m['To'], m['Subject']) for m in smtp.messages[-5:]]}")


def link_in(message, path: str) -> str:
    """The path and query of the e-mail's link to `path`, e.g. '/verify-email?token=...'."""
    text = message.get_body(("plain",)).get_content()
    for url in map(urlsplit, re.findall(r"https?://\S+", text)):
        if url.path == path:
            return f"{url.path}?{url.query}" if url.query else url.path
    raise AssertionError(f"no link to {path} in:\n{text}")
