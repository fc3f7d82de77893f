"""Operator commands: flask create-admin, seed-demo, expire-orders, send-mail, send-newsletter, check-stock,
import-books."""
import click
from flask import Flask
from flask.cli import with_appcontext

from bookstore.extensions import db
from bookstore.models import Book


@click.command("create-admin")
@click.option("--email", required=True, help="The administrator's e-mail (their login).")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True,
              help="At least 8 characters; prompted for when omitted.")
@click.option("--first-name", default="Admin", show_default=True)
@click.option("--last-name", default="User", show_default=True)
@with_appcontext
def create_admin(email, password, first_name, last_name):
    """Create an administrator, or promote an existing account to one."""
    from bookstore.schemas.fields import Email
    from marshmallow import ValidationError
    from bookstore.services import passwords
    from bookstore.services.accounts import create_or_promote_admin

    try:
        email = Email().deserialize(email)
    except ValidationError as error:
        raise click.BadParameter(error.messages[0], param_hint="--email") from None
    if not 8 <= len(password) <= 128:
        raise click.BadParameter("must be 8 to 128 characters long.", param_hint="--password")
    if passwords.too_common(password):
        raise click.BadParameter(passwords.TOO_COMMON, param_hint="--password")
    user, created = create_or_promote_admin(email=email, password=password, first_name=first_name,
                                            last_name=last_name)
    click.echo(f"{'Created' if created else 'Promoted'} administrator {user.email}.")


@click.command("seed-demo")
@click.option("--books", "count", default=1200, show_default=True, help="How many demo books to make.")
@click.option("--if-empty", is_flag=True, help="Do nothing when the catalogue already has books.")
@click.option("--covers/--no-covers", default=True, show_default=True, help="Generate a cover image per book.")
@with_appcontext
def seed_demo(count, if_empty, covers):
    """Load a deterministic demo catalogue of study books over the 18 categories."""
    from bookstore.demo import generator

    if if_empty and db.session.scalar(db.select(Book.id).limit(1)) is not None:
        click.echo("The catalogue has books already; demo data not loaded.")
        return
    with click.progressbar(length=count, label="Making demo books") as bar:
        made = generator.seed(count, with_covers=covers, progress=bar.update)
    click.echo(f"Loaded {made} demo books.")


@click.command("expire-orders")
@with_appcontext
def expire_orders():
    """Cancel online orders left unpaid past the payment window and release their stock, now (the
    job queue does this every minute by itself)."""
    from bookstore.services.orders import release_all_expired_holds

    total = release_all_expired_holds()
    click.echo(f"Released {total} unpaid order(s).")


@click.command("send-mail")
@with_appcontext
def send_mail():
    """Send queued e-mails that are due, now, retrying earlier failures (the job queue sends them by
    itself; this is for an operator who wants them out at once)."""
    from bookstore.services.mail import send_pending

    sent, failed = send_pending()
    click.echo(f"Sent {sent} e-mail(s); {failed} failed and stay queued.")


@click.command("send-newsletter")
@click.option("--subject", required=True, help="The mail's subject.")
@click.argument("body", type=click.File("r", encoding="utf-8"))
@with_appcontext
def send_newsletter(subject, body):
    """Queue a newsletter (plain text from BODY, a file or -) to every confirmed subscriber, each mail with its
    one-click unsubscribe link and headers."""
    from bookstore.services.newsletter import send_issue

    click.echo(f"Queued the newsletter for {send_issue(subject, body.read().strip())} subscriber(s).")


@click.command("check-stock")
@with_appcontext
def check_stock():
    """Prove every printed book's stock equals the sum of its stock ledger; list the books that differ
    and exit 1 if any do."""
    from bookstore.services.stock import differences

    wrong = differences()
    for book_id, title, stock, total in wrong:
        click.echo(f"Book {book_id} '{title}': stock {stock}, ledger {total} ({stock - total:+d}).")
    if wrong:
        raise click.exceptions.Exit(1)
    click.echo("Every book's stock equals its ledger.")


@click.command("import-books")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--dry-run", is_flag=True, help="Check the feed and report what it would change (nothing is written).")
@click.option("--kind", type=click.Choice(["catalogue", "stock"]), default="catalogue", show_default=True,
              help="catalogue: create and update books; stock: ISBN, price, discounted price and stock only.")
@click.option("--lines", default=50, show_default=True, type=click.IntRange(min=0),
              help="Report lines to print (the counts always follow).")
@click.option("--report", type=click.Path(dir_okay=False, writable=True),
              help="Write the whole report to this CSV file.")
@with_appcontext
def import_books(path, dry_run, kind, lines, report):
    """Read a catalogue or price & stock feed (CSV, XLSX or ONIX 3.0) from PATH; with --dry-run, report per row."""
    from flask import current_app

    from bookstore.errors import ApiError
    from bookstore.services import feed_dry_run
    from bookstore.services.csv_export import rows_to_csv

    if not dry_run:
        raise click.UsageError("Applying a feed is not built yet: run it with --dry-run to see its report.")
    with open(path, "rb") as stream:
        try:
            run = feed_dry_run.open_dry_run(stream, kind, current_app.config["FEED_MAX_BYTES"])
        except ApiError as error:
            raise click.ClickException(error.message) from None
        out = open(report, "w", encoding="utf-8", newline="") if report else None
        try:
            rows = feed_dry_run.report_rows(run)
            for chunk in rows_to_csv(feed_dry_run.REPORT_HEADER, _echoed(rows, lines)):
                if out:
                    out.write(chunk)
        finally:
            if out:
                out.close()
    counts = run.counts
    click.echo(f"{run.file_type.upper()} {kind} feed, dry run: {counts.rows} rows, {counts.created} created, "
               f"{counts.updated} updated, {counts.unchanged} unchanged, {counts.refused} refused. "
               "Nothing was changed.")


def _echoed(rows, limit: int):
    """Pass the report's rows on, printing the first `limit` of them (not the closing total: the counts say it)."""
    for n, row in enumerate(rows):
        if n < limit and row[2] != "total":
            click.echo(f"row {row[0]}  {row[1] or '-'}  {row[2]}  {row[3] or '-'}: {row[4]}")
        yield row


def register_cli(app: Flask) -> None:
    """Add the operator commands to `flask`."""
    for command in (create_admin, seed_demo, expire_orders, send_mail, send_newsletter, check_stock, import_books):
        app.cli.add_command(command)
