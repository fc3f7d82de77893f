"""Hindi in two scripts: Devanagari words and the Latin spellings shoppers type for them (issue 15).

Shoppers write Hindi as they say it ("itihas", "itihaas", "bharat", "vigyan"), not in a scholarly
scheme, so neither side is turned into the other letter for letter. Both become a loose Latin key
instead: Devanagari through indic-transliteration's IAST, its marks dropped and the final inherent
"a" left out as Hindi speakers do ("भारत" bhārata -> "bharat"); typed Latin with its usual spellings
folded ("aa" -> "a", "ee" -> "i", "sh" -> "s", "w" -> "v"), and a final "a" left out on both
sides. Words with the same key are taken for the same word; search adds its typo tolerance.
"""
import re
import unicodedata

from indic_transliteration import sanscript

_DEVANAGARI = re.compile(r"[\u0900-\u097f]")
# Spellings of one sound, longest first: "chh" and "ch" (IAST c, ch) are both "c", "ksh" is "ks".
_FOLDS = (("chh", "c"), ("ch", "c"), ("sh", "s"), ("aa", "a"), ("ee", "i"), ("ii", "i"), ("oo", "u"),
          ("uu", "u"), ("w", "v"), ("f", "ph"), ("q", "k"), ("z", "j"))


def is_devanagari(word: str) -> bool:
    """Whether the word is written in Devanagari."""
    return bool(_DEVANAGARI.search(word))


def romanised(word: str) -> str:
    """A Devanagari word as a shopper would type it in Latin letters ("इतिहास" -> "itihas")."""
    iast = sanscript.transliterate(word, sanscript.DEVANAGARI, sanscript.IAST)
    # ज्ञ is said and typed "gy" (gyan, vigyan); anusvara before a consonant is typed "n" (hindi).
    iast = iast.replace("jñ", "gy").replace("ṃ", "n").replace("ṁ", "n")
    # Hindi drops the inherent vowel at the end of a word (bhārata is said "bharat"), not a long ā.
    if len(iast) > 2 and iast.endswith("a") and not iast.endswith("ya") and iast[-2] not in "aeiouāīū":
        iast = iast[:-1]
    plain = "".join(c for c in unicodedata.normalize("NFKD", iast) if unicodedata.category(c) != "Mn").lower()
    return re.sub(r"[^a-z0-9]", "", plain)


def key(word: str) -> str:
    """The loose Latin key of a word in either script: spellings of one Hindi word share it."""
    text = romanised(word) if is_devanagari(word) else word.lower()
    for spelling, folded in _FOLDS:
        text = text.replace(spelling, folded)
    # A final "a" is typed or not at will ("kaksha", "bharata"), so the key leaves it out.
    return text[:-1] if len(text) > 3 and text.endswith("a") else text
