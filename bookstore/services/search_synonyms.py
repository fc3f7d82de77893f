"""The shop's search synonyms: groups of words and phrases a search treats as one (services/search)."""
from sqlalchemy import delete, insert, select

from bookstore.errors import ValidationFailed
from bookstore.extensions import db
from bookstore.models import SearchSynonym, User
from bookstore.services import audit, search

MAX_GROUPS = 1000
MAX_PHRASES = 20


def groups() -> list[list[str]]:
    """Every group's phrases, as search words, groups in their saved order."""
    found: dict[int, list[str]] = {}
    for group_no, phrase in db.session.execute(select(SearchSynonym.group_no, SearchSynonym.phrase)
                                               .order_by(SearchSynonym.group_no, SearchSynonym.id)):
        found.setdefault(group_no, []).append(phrase)
    return list(found.values())


def _normalised(sent: list[list[str]]) -> list[list[str]]:
    """The groups as search words (lower case, punctuation dropped), repeats within a group dropped.
    :raise ValidationFailed: a phrase without words or longer than a search reads, a group of fewer
    than two different phrases, or a phrase in two groups."""
    errors, seen, result = {}, {}, []
    for n, group in enumerate(sent):
        phrases, fine = [], True
        for m, text in enumerate(group):
            words = search.tokens(text)
            phrase = " ".join(words)
            problem = None
            if not words:
                problem = "A synonym must hold at least one word."
            elif len(words) >= search.MAX_TOKENS or len(phrase) > 80:
                problem = f"A synonym may have at most {search.MAX_TOKENS - 1} words and 80 characters."
            elif seen.get(phrase, n) != n:
                problem = f"\"{phrase}\" is already in group {seen[phrase] + 1}."
            if problem:
                errors.setdefault(str(n), {})[str(m)], fine = [problem], False
            elif phrase not in phrases:
                seen[phrase] = n
                phrases.append(phrase)
        if fine and len(phrases) < 2:
            errors[str(n)] = ["A group needs at least two different words or phrases."]
        result.append(phrases)
    if errors:
        # Shaped as marshmallow's errors of the same body: {"groups": {"1": {"0": [...]}}}.
        raise ValidationFailed({"groups": errors})
    return result


def replace(sent: list[list[str]], actor: User) -> list[list[str]]:
    """Replace every group with these (as search words), with an audit entry; answers the groups.
    :raise ValidationFailed: see _normalised."""
    after = _normalised(sent)
    before = groups()
    if after != before:
        db.session.execute(delete(SearchSynonym))
        rows = [{"group_no": n, "phrase": phrase, "first_word": phrase.split()[0]}
                for n, group in enumerate(after, start=1) for phrase in group]
        if rows:
            db.session.execute(insert(SearchSynonym), rows)
        audit.record(actor, "search_synonyms.update", "search_synonyms", "shop", {"groups": before},
                     {"groups": after})
        db.session.commit()
        search.forget_synonyms()
    return after
