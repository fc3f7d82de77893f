"""Words spelt as they sound: "fysics" and "fisiks" for physics, "kemistry" for chemistry, "saikology"
for psychology, "jenetics" for genetics. A typo correction keeps a word's first letter (search.py), so
these need their own look-up: a rough sound key for English as Indian shoppers write it, compared with
the same typo tolerance, among the indexed words that start with another spelling of the same sound.
Only a search that found nothing, and whose typos found nothing either, gets this far.
"""
import functools
import re

# Another way of writing how a word starts: a typed "f" may be a "ph" in the index, and so on. Only
# these starts are looked up, one vocabulary range each ("c" takes in "ch"); a start not listed here
# ("x", "a") has none.
OTHER_STARTS = {
    "ph": ("f",), "f": ("ph",),
    "k": ("c", "q"), "c": ("k",), "q": ("k",),
    "s": ("c", "ps"),
    "j": ("g",), "g": ("j",),
    "n": ("kn", "pn"),
    "r": ("wr", "rh"),
    "v": ("w",), "w": ("v",),
    "i": ("y",), "y": ("i",),
}

_SILENT_STARTS = {"ps": "s", "pn": "n", "kn": "n", "wr": "r", "rh": "r"}

# Applied in order to both the typed word and each candidate; two words with near keys sound alike.
_SOUND_RULES = (
    (re.compile(r"^(?:ps|pn|kn|wr|rh)"), lambda m: _SILENT_STARTS[m.group(0)]),
    (re.compile(r"ph"), "f"),
    (re.compile(r"c(?=[eiy])"), "s"),  # "civil", "science"
    (re.compile(r"g(?=[eiy])"), "j"),  # "genetics"
    (re.compile(r"ck|c|q"), "k"),
    (re.compile(r"kh"), "k"),  # "chemistry" -> "khemistry" -> "kemistry"
    (re.compile(r"x"), "ks"),
    (re.compile(r"ee"), "i"),
    (re.compile(r"oo"), "u"),
    (re.compile(r"y"), "i"),
    (re.compile(r"w"), "v"),
    (re.compile(r"z"), "s"),
    (re.compile(r"(.)\1+"), r"\1"),  # doubled letters
)


@functools.lru_cache(maxsize=65536)
def sound_key(word: str) -> str:
    """A rough key of how a lower-case word sounds: "physics", "fysics" and "fisiks" are all "fisiks"."""
    for pattern, replacement in _SOUND_RULES:
        word = pattern.sub(replacement, word)
    return word


def other_starts(word: str) -> tuple[str, ...]:
    """Other spellings of how the word starts, longest typed start first ("ph" before "p")."""
    return OTHER_STARTS.get(word[:2]) or OTHER_STARTS.get(word[:1]) or ()
