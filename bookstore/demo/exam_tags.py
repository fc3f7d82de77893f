"""Which exams and subjects a generated study book prepares for, read from the words its title was made of.

A pure function of the shelf, the title and the values its pattern was filled with (and a generator
seeded by the book's serial number where the words leave a choice), so the catalogue stays
deterministic. Slugs are those of migration 0014's exams and subjects.
"""
import random

ROMAN = {name: number for number, name in enumerate(
    ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"), start=1)}

# (words in the book's subject, subject slug), first match wins; per family of exams.
_SCHOOL = (("hindi", "hindi"), ("english", "english"), ("phonics", "english"), ("rhymes", "english"),
           ("cursive", "english"), ("evs", "environmental-studies"), ("environment", "environmental-studies"),
           ("number", "mathematics"), ("math", "mathematics"), ("algebra", "mathematics"), ("geometry", "mathematics"),
           ("physics", "physics"), ("chemistry", "chemistry"), ("biology", "biology"), ("biotech", "biology"),
           ("science", "science"), ("history", "history"), ("civics", "social-science"),
           ("geography", "social-science"), ("social", "social-science"), ("accountancy", "accountancy"),
           ("business", "business-studies"), ("entrepreneur", "business-studies"), ("economics", "economics"),
           ("political", "political-science"), ("informatics", "computer-science"), ("computer", "computer-science"))
_PCM = (("chemi", "chemistry"), ("physics", "physics"), ("mechanics", "physics"), ("electricity", "physics"),
        ("optics", "physics"), ("waves", "physics"), ("botany", "biology"), ("zoology", "biology"),
        ("biology", "biology"), ("physiology", "biology"), ("genetics", "biology"), ("ecology", "biology"),
        ("biotech", "biology"), ("math", "mathematics"), ("calculus", "mathematics"), ("algebra", "mathematics"),
        ("geometry", "mathematics"), ("trigonometry", "mathematics"), ("vectors", "mathematics"),
        ("probability", "mathematics"))
_PRELIMS = (("history", "history"), ("india", "history"), ("movement", "history"), ("art", "history"),
            ("geography", "geography"), ("polity", "polity"), ("governance", "polity"), ("economy", "economy"),
            ("environment", "environment"), ("disaster", "environment"), ("science", "science-and-technology"))
_MAINS = (("ethics", "general-studies-iv-ethics"), ("essay", "essay"), ("polity", "general-studies-ii"),
          ("governance", "general-studies-ii"), ("relations", "general-studies-ii"),
          ("economy", "general-studies-iii"), ("environment", "general-studies-iii"),
          ("science", "general-studies-iii"), ("security", "general-studies-iii"), ("disaster", "general-studies-iii"),
          ("general studies", "general-studies-i"), ("", "general-studies-i"))
_GATE_BRANCHES = (("computer", "gate-cse"), ("data science", "gate-cse"), ("electronics", "gate-ece"),
                  ("instrumentation", "gate-ece"), ("electrical", "gate-ee"), ("mechanical", "gate-me"),
                  ("production", "gate-me"), ("civil", "gate-ce"), ("chemical", "gate-ch"))
# A GATE subject book: (words, branch, subject slug); "" for a branch means any branch.
_GATE_SUBJECTS = (("mathematics", "", "engineering-mathematics"), ("aptitude", "", "general-aptitude"),
                  ("thermodynamics", "gate-me", "thermodynamics"), ("machines", "gate-me", None),
                  ("signals", "gate-ece", "networks-signals-and-systems"),
                  ("network", "gate-ece", "networks-signals-and-systems"), ("electromagnetic", "gate-ece", None),
                  ("soil", "gate-ce", "geotechnical-engineering"), ("structural", "gate-ce", "structural-engineering"),
                  ("digital", "gate-cse", "digital-logic"), ("algorithms", "gate-cse", "data-structures-and-algorithms"),
                  ("power", "gate-ee", "power-systems"))
_NET = (("paper i", "teaching-and-research-aptitude-paper-i"), ("teaching", "teaching-and-research-aptitude-paper-i"),
        ("research", "teaching-and-research-aptitude-paper-i"), ("higher education", "teaching-and-research-aptitude-paper-i"),
        ("commerce", "commerce"), ("economics", "economics"), ("english", "english"), ("history", "history"),
        ("political", "political-science"), ("education", "education"), ("computer", "computer-science"))
_GRE = (("analytical", "analytical-writing"), ("quant", "quantitative-reasoning"), ("math", "quantitative-reasoning"),
        ("data", "quantitative-reasoning"), ("verbal", "verbal-reasoning"), ("vocabulary", "verbal-reasoning"),
        ("reading", "verbal-reasoning"), ("completion", "verbal-reasoning"))
_GMAT = (("data insights", "data-insights"), ("two-part", "data-insights"), ("sufficiency", "data-insights"),
         ("quant", "quantitative-reasoning"), ("problem", "quantitative-reasoning"), ("verbal", "verbal-reasoning"),
         ("critical", "verbal-reasoning"), ("reading", "verbal-reasoning"))
_SAT = (("reading", "reading-and-writing"), ("grammar", "reading-and-writing"), ("vocabulary", "reading-and-writing"),
        ("math", "math"), ("algebra", "math"), ("problem", "math"))
_CAT = (("quant", "quantitative-ability"), ("verbal", "verbal-ability-and-reading-comprehension"),
        ("reading", "verbal-ability-and-reading-comprehension"),
        ("interpretation", "data-interpretation-and-logical-reasoning"),
        ("logical", "data-interpretation-and-logical-reasoning"))
_BANK = (("quant", "quantitative-aptitude"), ("data", "quantitative-aptitude"), ("reasoning", "reasoning-ability"),
         ("puzzles", "reasoning-ability"), ("english", "english-language"), ("awareness", "general-awareness"),
         ("computer", "computer-knowledge"))
_SSC = (("quant", "quantitative-aptitude"), ("math", "quantitative-aptitude"), ("arithmetic", "quantitative-aptitude"),
        ("reasoning", "general-intelligence-and-reasoning"), ("intelligence", "general-intelligence-and-reasoning"),
        ("english", "english-comprehension"), ("general", "general-awareness"), ("current", "general-awareness"))
_CUET_FROM_SCHOOL = {"physics", "chemistry", "mathematics", "biology", "accountancy", "economics", "history",
                     "political-science", "english"}
BANK_EXAMS = {"IBPS PO": "ibps-po", "IBPS Clerk": "ibps-clerk", "SBI PO": "sbi-po", "SBI Clerk": "sbi-clerk"}


def _subject(words: tuple, text: str) -> str | None:
    lowered = text.lower()
    return next((slug for key, slug in words if key in lowered), None)


def tags(rng: random.Random, shelf: str, title: str, fills: dict) -> list[tuple[str, list[str]]]:
    """The book's exams, each with the slugs of its subjects: [("jee-main", ["physics"]), ...]."""
    subject = str(fills.get("subject", ""))
    finder = _FINDERS.get(shelf)
    return finder(rng, title, subject, fills) if finder else []


_LEVELS = ((5, {"english", "hindi", "mathematics", "environmental-studies"}),
           (10, {"english", "hindi", "mathematics", "science", "social-science"}),
           (12, {"physics", "chemistry", "mathematics", "biology", "accountancy", "business-studies", "economics",
                 "english", "history", "political-science", "computer-science"}))
# Classes VI-X study the sciences and the humanities as one subject each.
_MIDDLE_SCHOOL = {"physics": "science", "chemistry": "science", "biology": "science", "history": "social-science",
                  "political-science": "social-science", "economics": "social-science"}


def _school(rng, title, subject, fills):
    grade = ROMAN.get(str(fills.get("cls")))
    if grade is None:
        return []
    # The board named in the title, else mostly CBSE, as on a real shop's school shelf.
    named = fills.get("board") if fills.get("board", "") in title else None
    board = ({"CBSE": "cbse", "ICSE": "icse"}.get(named, "state-board") if named
             else rng.choices(("cbse", "icse", "state-board"), (6, 2, 2))[0])
    found = _subject(_SCHOOL, subject)
    if 6 <= grade <= 10:
        found = _MIDDLE_SCHOOL.get(found, found)
    allowed = next(names for top, names in _LEVELS if grade <= top)
    subjects = [found] if found in allowed else []
    exams = [(f"{board}-class-{grade}", subjects)]
    # Many Class XII books also prepare for CUET-UG's domain papers.
    if grade == 12 and found in _CUET_FROM_SCHOOL and rng.random() < 0.4:
        exams.append(("cuet-ug", subjects))
    return exams


def _jee(rng, title, subject, fills):
    if any(word in title for word in ("BITSAT", "WBJEE", "MHT-CET")):
        return []
    found = _subject(_PCM, subject)
    subjects = [found] if found else (["physics", "chemistry", "mathematics"] if "Chemistry" in subject else [])
    main, advanced = "Main" in title or "Engineering Entrance" in title, "Advanced" in title or "IIT" in title
    if not (main or advanced):
        main = advanced = True
    return [(slug, subjects) for slug, chosen in (("jee-main", main), ("jee-advanced", advanced)) if chosen]


def _neet(rng, title, subject, fills):
    found = _subject(_PCM, subject)
    return [("neet-ug", [found] if found else (["physics", "chemistry", "biology"] if "Biology" in subject else []))]


def _upsc(rng, title, subject, fills):
    text = subject + " " + title
    if "CSAT" in title:
        return [("upsc-cse-prelims", ["csat"])]
    if "Optional" in title:
        return [("upsc-cse-mains", ["optional-subject"])]
    if "Essay" in title:
        return [("upsc-cse-mains", ["essay"])]
    prelims, mains = "Prelims" in title, "Mains" in title
    if not (prelims or mains):
        prelims = mains = True
    exams = []
    if prelims:
        found = _subject(_PRELIMS, text)
        exams.append(("upsc-cse-prelims", [found] if found else []))
    if mains:
        exams.append(("upsc-cse-mains", [_subject(_MAINS, subject)]))
    return exams


def _gate(rng, title, subject, fills):
    branch = _subject(_GATE_BRANCHES, subject)
    if branch:
        return [(branch, [])]
    lowered = subject.lower()
    for words, branch, slug in _GATE_SUBJECTS:
        if words in lowered:
            branch = branch or rng.choice(("gate-cse", "gate-ece", "gate-ee", "gate-me", "gate-ce"))
            return [(branch, [slug] if slug else [])]
    return []


def _net(rng, title, subject, fills):
    if "CSIR" in title:
        return []
    found = _subject(_NET, subject + (" paper i" if "Paper I" in title and "Paper II" not in title else ""))
    return [("ugc-net", [found] if found else [])]


def _abroad(exam: str, words: tuple):
    def finder(rng, title, subject, fills):
        found = _subject(words, subject)
        return [(exam, [found] if found else [])]
    return finder


def _cat(rng, title, subject, fills):
    if "CAT" not in title:
        return []
    found = _subject(_CAT, subject)
    return [("cat", [found] if found else [])]


def _bank(rng, title, subject, fills):
    exam = fills.get("exam", "")
    if exam in BANK_EXAMS and exam in title:
        slugs = [BANK_EXAMS[exam]]
    elif "Bank" in title:
        slugs = ["ibps-po", "sbi-po"] + (["ibps-clerk", "sbi-clerk"] if "Clerk" in title else [])
    else:
        return []
    found = _subject(_BANK, subject) if subject != "bank exams" else None
    return [(slug, [found] if found else []) for slug in slugs]


def _competitive(rng, title, subject, fills):
    if "Legal Reasoning" in title:
        return [("clat", ["legal-reasoning"])]
    if "Logical Reasoning" in title:
        return [("clat", ["logical-reasoning"])]
    exam = fills.get("exam", "")
    if exam in ("SSC CGL", "SSC CHSL") and exam in title:
        found = _subject(_SSC, subject)
        return [(exam.lower().replace(" ", "-"), [found] if found else [])]
    if exam == "CUET (UG)" and exam in title:
        return [("cuet-ug", ["general-test"])]
    return []


_FINDERS = {
    "school": _school, "iit": _jee, "pmt": _neet, "ias": _upsc, "gate": _gate, "net": _net,
    "gre": _abroad("gre", _GRE), "gmat": _abroad("gmat", _GMAT), "sat": _abroad("sat", _SAT), "mba": _cat,
    "banking": _bank, "other-competitive": _competitive,
}
