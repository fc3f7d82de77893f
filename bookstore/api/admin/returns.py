"""Administrators work through returns: the list, one return, its photos, and each step (guarded: under
/api/admin)."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.common import pagination
from bookstore.schemas.return_request import (AdminReturnListReplySchema, AdminReturnReplySchema, ReturnFilterSchema,
                                              ReturnUpdateSchema)
from bookstore.security import current_user
from bookstore.services import private_files, returns

blp = Blueprint("admin_returns", __name__, url_prefix="/api/admin/returns", description="Administration: returns")


@blp.route("", methods=["GET"])
@blp.arguments(ReturnFilterSchema, location="query")
@blp.response(200, AdminReturnListReplySchema)
def list_returns(query):
    """Returns, newest first; with `status`, that step's oldest first (the queue to work through)."""
    page = returns.admin_list(query["page"], query["limit"], query.get("status"))
    return {"returns": page.items, "totalReturns": page.total, "pagination": pagination(page, "totalReturns")}


@blp.route("/<string:return_id>", methods=["GET"])
@blp.response(200, AdminReturnReplySchema)
def get_return(return_id):
    """One return with its order, photos and (until paid out) the shopper's refund details."""
    return {"return_request": returns.find(return_id)}


@blp.route("/<string:return_id>", methods=["PUT"])
@blp.arguments(ReturnUpdateSchema)
@blp.response(200, AdminReturnReplySchema)
def update_return(data, return_id):
    """Approve (pickup or self-ship), reject with a reason, receive (resaleable per book) or refund."""
    updated = returns.take_step(return_id, data, current_user())
    return {"message": f"Return {updated.status.replace('_', ' ')}.", "return_request": updated}


@blp.route("/<string:return_id>/photos/<string:photo_id>", methods=["GET"])
@blp.response(200, description="The photo (image/jpeg)", content_type="image/jpeg")
def return_photo(return_id, photo_id):
    """A photo the shopper sent with the return."""
    photo = returns.admin_photo(return_id, photo_id)
    return private_files.send(photo.key, f"return-photo-{photo.id}.jpg", "image/jpeg", as_attachment=False)
