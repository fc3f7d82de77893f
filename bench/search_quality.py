"""Search relevance benchmark: hits@3 of shoppers' queries against the demo catalogue (issue 15).

Usage (from the project root; the script re-runs itself with .venv/bin/python if needed):

    .venv/bin/python bench/search_quality.py                  # builds a 3,000-book SQLite demo catalogue
    .venv/bin/python bench/search_quality.py --books 3000 --verbose
    .venv/bin/python bench/search_quality.py --database-url postgresql://postgres@127.0.0.1/bookstore_quality

Each query is asked as a shopper asks it (GET /api/books?search=...&limit=3, through the app in this
process) and is a hit when at least one of the three books it answers first is one of the books the
query must find: those whose "title | author" matches the query's pattern. The demo catalogue is
deterministic (book n is a pure function of n), so the patterns name real books; 3,000 books is the
smallest demo catalogue that holds a C++ book and a Class X Mathematics book. A query whose pattern
matches no book of the catalogue is reported as a broken case, not counted. Prints hits@3 and every
miss with what came first instead. Exit status 0; 1 with --min when hits@3 is below it; 2 when the
benchmark cannot run.

Without --database-url a fresh SQLite catalogue is built in a temporary folder each run (`flask db
upgrade`, `flask seed-demo --books N --no-covers`, about a minute); with it, an empty database is
migrated and seeded, and one with books is migrated to the latest schema and used as it is.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV_PYTHON = ROOT / ".venv" / "bin" / "python"

# (query as a shopper types it, pattern of the books it must find among the first three).
QUERIES: list[tuple[str, str]] = [
    # The examples.
    ("physcis", r"\bPhysics\b"),
    ("jee mains", r"\bJEE Main\b"),
    ("class 10 maths", r"Mathematics.*Class X\b(?!I)"),
    ("ias prelims", r"\b(UPSC|Civil Services) Prelims\b"),
    ("c++", r"\bC\+\+"),
    ("c#", r"\bC#"),
    # Exams and their other names.
    ("upsc", r"\bUPSC\b"),
    ("civil services", r"\bCivil Services\b"),
    ("cse prelims", r"\b(UPSC|Civil Services) Prelims\b"),
    ("neet biology", r"\bNEET\b.*\bBiology\b|\bBiology\b.*\bNEET\b"),
    ("pmt biology", r"\bNEET\b.*\bBiology\b|\bBiology\b.*\bNEET\b"),
    ("neet ug mock tests", r"\bNEET-UG\b.*Mock Tests"),
    ("iit jee physics", r"\bPhysics\b.*\bJEE\b|\bJEE\b.*\bPhysics\b"),
    ("jee main 2026", r"\bJEE Main\b.*\b2026\b"),
    ("neet 2026", r"\bNEET\b.*\b2026\b"),
    ("ssc cgl", r"\bSSC CGL\b"),
    ("ssc cgl previous papers", r"\bSSC CGL Previous Years' Papers"),
    ("bank po", r"\b(IBPS|SBI|Bank) PO\b"),
    ("ibps po", r"\bIBPS PO\b"),
    ("sbi clerk", r"\bSBI Clerk\b"),
    ("rbi grade b", r"\bRBI Grade B\b"),
    ("gate mechanical", r"\bGATE\b.*\bMechanical Engineering\b"),
    ("gate computer science", r"\bGATE\b.*\bComputer Science\b"),
    ("gate electrical", r"\bGATE\b.*\bElectrical Engineering\b"),
    ("ugc net commerce", r"\bUGC NET\b.*\bCommerce\b"),
    ("csir net life sciences", r"\bCSIR NET Life Sciences\b"),
    ("gre vocabulary", r"\bGRE\b.*\bVocabulary\b"),
    ("gmat verbal", r"\bGMAT\b.*\bVerbal\b"),
    ("digital sat math", r"\bDigital SAT Math\b"),
    ("cat quantitative aptitude", r"Quantitative Aptitude for CAT|CAT \d{4} Quantitative Aptitude"),
    ("ctet", r"\bCTET\b"),
    ("bitsat", r"\bBITSAT\b"),
    ("ncert exemplar", r"\bNCERT Exemplar\b"),
    ("cbse sample papers", r"\bCBSE\b.*\bSample Papers\b"),
    # School classes written the ways shoppers write them.
    ("class 12 physics", r"\bPhysics\b.*\bClass XII\b"),
    ("class xii physics", r"\bPhysics\b.*\bClass XII\b"),
    ("twelfth biology", r"\bBiology\b.*\bClass XII\b"),
    ("class 9 science", r"\bScience\b.*\bClass IX\b"),
    ("10th class hindi", r"\bHindi\b.*\bClass X\b(?!I)"),
    ("class 11 chemistry", r"\bChemistry\b.*\bClass XI\b(?!I)"),
    # Subjects, with and without typos.
    ("chemisty", r"\bChemistry\b"),
    ("organic chemistry", r"\bOrganic Chemistry\b"),
    ("orgnaic chemistry", r"\bOrganic Chemistry\b"),
    ("fysics", r"\bPhysics\b"),
    ("kemistry", r"\bChemistry\b"),
    ("saikology", r"\bPsychology\b"),
    ("jenetics", r"\bGenetics\b"),
    ("quantitative aptitude", r"\bQuantitative Aptitude\b"),
    ("quantitave aptitude", r"\bQuantitative Aptitude\b"),
    ("reasoning ability", r"\bReasoning Ability\b"),
    ("indian polity", r"\bIndian Polity\b"),
    ("indain polity", r"\bIndian Polity\b"),
    ("modern indian history", r"\bModern Indian History\b"),
    ("finacial accounting", r"\bFinancial Accounting\b"),
    ("income tax", r"\bIncome Tax\b"),
    ("gst", r"\bGST\b"),
    ("business law", r"\bBusiness Law\b"),
    ("data structures", r"\bData Structures\b"),
    ("operating sytems", r"\bOperating Systems\b"),
    ("machine learning", r"\bMachine Learning\b"),
    ("python programming", r"\bPython\b"),
    ("java", r"\bJava\b(?!Script)"),
    ("javascript", r"\bJavaScript\b"),
    ("engineering mathematics", r"\bEngineering Mathematics\b"),
    ("engg maths", r"\bEngineering Mathematics\b"),
    ("anatomy and physiology", r"\bAnatomy and Physiology\b"),
    ("pharmacology", r"\bPharmacology\b"),
    ("marketing management", r"\bMarketing Management\b"),
    ("organizational behavior", r"\bOrganisational Behaviour\b"),
    ("hindi sahitya", r"\bHindi Sahitya\b"),
    ("itihas", r"\bItihas\b|इतिहास"),
    ("microbiology", r"\bMicrobiology\b"),
    ("thermodynamics", r"\bThermodynamics\b"),
    ("econometrics", r"\bEconometrics\b"),
    # Hindi in Devanagari and typed in Latin letters (Hindi-medium books carry Devanagari titles).
    ("इतिहास", r"इतिहास|\bItihas\b"),
    ("भारत का इतिहास", r"भारत का इतिहास"),
    ("bharat ka itihas", r"भारत का इतिहास"),
    ("सामान्य ज्ञान", r"सामान्य ज्ञान"),
    ("samanya gyan", r"सामान्य ज्ञान"),
    ("bhautik vigyan", r"भौतिक विज्ञान"),
    ("रसायन विज्ञान कक्षा 12", r"रसायन विज्ञान.*कक्षा 12"),
    ("rasayan vigyan", r"रसायन विज्ञान"),
    ("ganit", r"गणित|\bGanit\b"),
    ("bhugol", r"भूगोल"),
    ("arthshastra", r"अर्थशास्त्र"),
    ("bhartiya rajvyavastha", r"भारतीय राजव्यवस्था"),
    ("hindi vyakaran", r"हिन्दी व्याकरण|\bHindi Vyakaran\b"),
    ("हिंदी व्याकरण", r"हिन्दी व्याकरण|\bHindi Vyakaran\b"),
    ("upsc adhunik bharat ka itihas", r"आधुनिक भारत का इतिहास"),
    ("ssc cgl ankganit", r"SSC CGL अंकगणित"),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--books", type=int, default=3000, help="demo catalogue size to build (default 3000)")
    parser.add_argument("--database-url", help="use (or migrate and seed, if empty) this database")
    parser.add_argument("--min", type=float, help="exit 1 when hits@3 (percent) is below this")
    parser.add_argument("--verbose", action="store_true", help="print every query's first three books")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="search-quality-") as folder:
        url = args.database_url or f"sqlite:///{folder}/catalogue.db"
        os.environ.update({"DATABASE_URL": url, "MEDIA_ROOT": f"{folder}/media", "BOOKSTORE_ENV": "development"})
        _flask(["db", "upgrade"])
        if not _has_books(url):
            print(f"building a {args.books:,}-book demo catalogue (seed-demo)...", flush=True)
            _flask(["seed-demo", "--books", str(args.books), "--no-covers"])
        return _measure(args)


def _has_books(url: str) -> bool:
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import SQLAlchemyError

    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return bool(connection.scalar(text("SELECT count(*) FROM books")))
    except SQLAlchemyError:
        return False
    finally:
        engine.dispose()


def _flask(command: list[str]) -> None:
    """Run a `flask --app wsgi` command on the catalogue; stop with its output if it fails."""
    done = subprocess.run([str(ROOT / ".venv" / "bin" / "flask"), "--app", "wsgi", *command], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        print((done.stdout + done.stderr)[-3000:], file=sys.stderr)
        sys.exit(2)


def _measure(args) -> int:
    sys.path.insert(0, str(ROOT))
    from sqlalchemy import select

    from bookstore import create_app
    from bookstore.extensions import db
    from bookstore.models import Book

    app = create_app({"RATELIMIT_ENABLED": False})
    client = app.test_client()
    with app.app_context():
        catalogue = [f"{title} | {author}" for title, author in
                     db.session.execute(select(Book.title, Book.author).where(Book.archived.is_(False)))]
    hits, misses, broken = 0, [], []
    for query, pattern in QUERIES:
        wanted = re.compile(pattern)
        if not any(wanted.search(book) for book in catalogue):
            broken.append((query, pattern))
            continue
        reply = client.get("/api/books", query_string={"search": query, "limit": 3}).get_json()
        first = [f"{book['title']} | {book['author']}" for book in reply.get("books", [])]
        hit = any(wanted.search(book) for book in first)
        hits += hit
        if not hit:
            misses.append((query, pattern, first, reply.get("didYouMean")))
        if args.verbose:
            print(f"{'HIT ' if hit else 'MISS'} {query!r}: {first}")
    counted = len(QUERIES) - len(broken)
    rate = 100.0 * hits / counted if counted else 0.0
    print(f"hits@3: {hits}/{counted} = {rate:.1f}% ({len(catalogue):,} books, {app.config['SQLALCHEMY_DATABASE_URI'].split(':')[0]})")
    for query, pattern, first, did_you_mean in misses:
        print(f"  miss {query!r} (wants /{pattern}/)" + (f", did you mean {did_you_mean!r}" if did_you_mean else ""))
        for title in first or ["(no books)"]:
            print(f"       {title}")
    for query, pattern in broken:
        print(f"  broken case {query!r}: no book of this catalogue matches /{pattern}/")
    return 1 if args.min is not None and rate < args.min else 0


if __name__ == "__main__":
    if Path(sys.executable).resolve() != VENV_PYTHON.resolve() and VENV_PYTHON.exists():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
    sys.exit(main())
