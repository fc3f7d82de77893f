"""Handing over a digital book's file through the short-lived signed address a counted download answered."""
from bookstore.blueprint import Blueprint
from bookstore.services import digital

blp = Blueprint("downloads", __name__, url_prefix="/api/downloads", description="Digital book downloads")


@blp.route("/<string:signed>", methods=["GET"])
@blp.response(200, description="The file (streamed, or a 303 to a pre-signed storage address)",
              content_type="application/octet-stream")
def download(signed):
    """The file a download link names, while the link is valid (5 minutes). Counts nothing: the POST did."""
    return digital.open_link(signed)
