"""Exams beside the categories: every exam with its subjects and book counts, and one exam's page."""
from bookstore.blueprint import Blueprint
from bookstore.schemas.exam import ExamListQuerySchema, ExamListReplySchema, ExamPageReplySchema
from bookstore.services import exams

blp = Blueprint("exams", __name__, url_prefix="/api/exams", description="Exams")


@blp.route("", methods=["GET"])
@blp.arguments(ExamListQuerySchema, location="query")
@blp.response(200, ExamListReplySchema)
def list_exams(query):
    """Every exam (or only the popular ones) in the shop's order, with its subjects and how many books each has."""
    return {"exams": exams.exams_with_counts(popular_only=query["popular"])}


@blp.route("/<string:slug>", methods=["GET"])
@blp.response(200, ExamPageReplySchema)
def get_exam(slug):
    """One exam: its subjects with book counts and its best sellers; 404 for an unknown slug."""
    page = exams.exam_page(slug)
    return {"exam": page.exam, "bestsellers": page.bestsellers}
