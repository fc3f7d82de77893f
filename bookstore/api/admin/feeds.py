"""Catalogue feeds' dry runs (guarded: under /api/admin): what a CSV, XLSX or ONIX file would change, row by row."""
from flask import Response, current_app, request, stream_with_context

from bookstore.blueprint import Blueprint
from bookstore.errors import ValidationFailed
from bookstore.request_input import body_limit
from bookstore.schemas.feed import FeedDryRunFormSchema, FeedDryRunReplySchema
from bookstore.services import feed_dry_run
from bookstore.services.csv_export import rows_to_csv

blp = Blueprint("admin_feeds", __name__, url_prefix="/api/admin/feeds", description="Administration: catalogue feeds")

# Room for the multipart envelope around the file itself.
_ENVELOPE_BYTES = 64 * 1024
_UPLOAD_DOC = {"requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
    "type": "object", "required": ["file"], "properties": {
        "file": {"type": "string", "format": "binary", "description": "CSV, XLSX or ONIX 3.0 XML"},
        "kind": {"type": "string", "enum": list(feed_dry_run.KINDS), "default": "catalogue"},
        "lines": {"type": "integer", "minimum": 0, "maximum": 1000, "default": 100}}}}}}}


def _upload_limit() -> int:
    return current_app.config["FEED_MAX_BYTES"] + _ENVELOPE_BYTES


def _upload():
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        raise ValidationFailed({"file": ["Choose the feed's file (CSV, XLSX or ONIX XML)."]})
    return upload.stream


@blp.route("/dry-run", methods=["POST"])
@body_limit(_upload_limit)
@blp.arguments(FeedDryRunFormSchema, location="form")
@blp.response(200, FeedDryRunReplySchema)
@blp.doc(**_UPLOAD_DOC)
def dry_run(form):
    """Check a feed as the book form would and classify each row against the catalogue; changes nothing."""
    summary = feed_dry_run.summarise(_upload(), form["kind"], current_app.config["FEED_MAX_BYTES"], form["lines"])
    counts = summary.counts
    return {"message": f"Dry run of {counts.rows} rows: {counts.created} to create, {counts.updated} to update, "
                       f"{counts.unchanged} unchanged, {counts.refused} refused. Nothing was changed.",
            "file_type": summary.file_type, "kind": summary.kind,
            "counts": {"rows": counts.rows, **vars(counts)},
            "lines": [feed_dry_run.report_dict(line) for line in summary.lines], "total_lines": summary.total_lines}


@blp.route("/dry-run/report.csv", methods=["POST"])
@body_limit(_upload_limit)
@blp.arguments(FeedDryRunFormSchema, location="form")
@blp.doc(**_UPLOAD_DOC, responses={"200": {"description": "The whole report as CSV",
                                           "content": {"text/csv": {"schema": {"type": "string"}}}}})
def dry_run_report(form):
    """The same dry run's whole report as a CSV download, streamed (every line, then the counts)."""
    copy = feed_dry_run.kept_copy(_upload())
    try:
        run = feed_dry_run.open_dry_run(copy, form["kind"], current_app.config["FEED_MAX_BYTES"])
    except Exception:
        copy.close()
        raise
    body = rows_to_csv(feed_dry_run.REPORT_HEADER, feed_dry_run.report_rows(run, close=copy))
    return Response(stream_with_context(body), mimetype="text/csv",
                    headers={"Content-Disposition": 'attachment; filename="feed-dry-run.csv"'})
