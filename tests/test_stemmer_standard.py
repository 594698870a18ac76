"""The native twins of nltk's ``_StandardStemmer`` family (dutch, english, finnish, french, german, italian,
portuguese, romanian, spanish) against nltk, word for word (``stemmer_oracle.assert_same``).

The words are built, not chosen: every string literal of the original's class (each suffix of each rule list,
and every letter group its conditions test: "niss", "gem", "heden", "iqU", ...) after stems that put the
regions R1, R2 and RV at every place the rules care about (no vowel, one vowel-consonant pair, two, a double
vowel at the start, the language's special letters and the letters it marks as consonants), then two suffixes
in a row, then hypothesis strings over the language's alphabet and its suffixes. The literals are read from
nltk's source at test time, so a new rule of a new nltk is covered by the same test (and the version gate of
rouge_metric.stemmers keeps the twin away from an nltk it was not checked against)."""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from typing import Dict, List

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stemmer_oracle import NLTK_DATA, assert_same, require_twin, stopword_lists

nltk_snowball = pytest.importorskip("nltk.stem.snowball")

#: Per language: the letters its stemmer treats specially (vowels with accents, letters it marks or rewrites),
#: and stems that open its regions in different places.
LANGUAGES: Dict[str, Dict[str, str]] = {
    "dutch": {"letters": "aeiouyè" "äáëéíïöóüú" "bdgjkmnrstv" "IY",
              "stems": "y yi aai bedi gem gemn geheid koopt lood ontij vrijheid rijk inkoop eik"},
    "english": {"letters": "aeiouy" "bcdglmnrstwx" "Y'’‘‛",
                "stems": "y ay sky gener commun arsen ugl hop fil lov tri ski cosm proced 'y"},
    "finnish": {"letters": "aeiouyäö" "hjklmnpst",
                "stems": "ta taa kala kalo kissa talo po pop imp kiel lintu aamu hyvä"},
    "french": {"letters": "aeiouyâàëéêèïîôûù" "çqgnst" "IUY",
               "stems": "a ai aai par col tap qu quai ouvr bey joy ennu emmen iv ic abil at eus gu"},
    "german": {"letters": "aeiouyäöü" "ßẞbdfghklmnrst" "UY",
               "stems": "a ai bau bauy gross maß kenn erlieb niss heit ig lich haus straß"},
    "italian": {"letters": "aeiouàèìòùáéíóú" "cghqst" "IU",
                "stems": "a ai qu quai and end ar er ir abil ic iv at os mangi pesc"},
    "portuguese": {"letters": "aeiouáéíóúâêô" "ãõçü" "cgqrst~",
                   "stems": "a ai qü gü nação mãe põ cient iv ic ad os abil at ante avel ivel ci gu"},
    "romanian": {"letters": "aeiouăâî" "şţșțcnrst" "IU",
                 "stems": "a ai aua ab ţ ab abil iv ic at it ist o ţi lucr cânt fac"},
    "spanish": {"letters": "aeiouáéíóúü" "ñgnrsy",
                "stems": "a ai gu yu and ar er ir iend yend uyend abil ic iv at os ad ante able ible"},
}
NAMES = sorted(LANGUAGES)


def original_class(name: str):
    return type(nltk_snowball.SnowballStemmer(name).stemmer)


def literals(name: str) -> List[str]:
    """Every string literal of the original's class source (its suffix lists, the letter groups its
    conditions test), at most 10 characters, without whitespace (the docstrings)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(original_class(name))))
    found = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return sorted(s for s in found if 0 < len(s) <= 10 and not any(c.isspace() for c in s))


def stems(name: str, full: bool) -> List[str]:
    """The language's chosen stems, each also after a consonant and after a vowel; every string of one letter
    (``full``: of up to two letters) over a vowel, a consonant and the language's own letters; every
    vowel/consonant pattern of 3 and 4 letters (``full``: up to 6): R1, R2 and RV start at every small
    offset."""
    spec = LANGUAGES[name]
    chosen = spec["stems"].split()
    small = sorted(set("at" + spec["letters"][:6] + spec["letters"][-4:]))
    out = {""} | set(chosen) | {"t" + s for s in chosen} | {"a" + s for s in chosen} | set(small)
    out |= {"".join(p) for k in (3, 4) for p in itertools.product("at", repeat=k)}  # vowel/consonant patterns
    if full:
        out |= {"".join(p) for p in itertools.product(small, repeat=2)}
        out |= {"".join(p) for k in (5, 6) for p in itertools.product("at", repeat=k)}
    return sorted(out)


def built_words(name: str, full: bool = False) -> List[str]:
    """stem + literal for every stem and literal; stem + literal + literal for the first chosen stems and
    (``full``: every literal; else the first few) as the second suffix; some words also capitalised."""
    lits = literals(name)
    words = {s + l for s in stems(name, full) for l in lits}
    chosen = LANGUAGES[name]["stems"].split()
    words |= {s + a + b for s in chosen[:6 if full else 2] for a in lits for b in (lits if full else lits[::40])}
    words |= {w.capitalize() for w in list(words)[::7]}
    return sorted(words)


# ------------------------------------------------------------------------------------ built words
@pytest.mark.parametrize("name", NAMES)
def test_every_literal_after_every_stem(name):
    require_twin(name)
    words = built_words(name)
    assert len(words) > 1500
    assert assert_same(name, words) == len(words)
    # the rules fire: many stems differ from the lowercased word
    stems = require_twin(name).stem_many(words)  # the original's, as just checked
    assert sum(s != w.lower() for s, w in zip(stems, words)) > len(words) // 3


@pytest.mark.integration
@pytest.mark.parametrize("name", NAMES)
def test_every_literal_pair_after_every_stem(name):
    require_twin(name)
    words = built_words(name, full=True)
    assert len(words) > 10000
    assert assert_same(name, words) == len(words)


@pytest.mark.parametrize("name", NAMES)
def test_stopwords_returned_unchanged_and_others_stemmed(name):
    """With ignore_stopwords, a stopword (of the lowercased word) is returned lowercased and unstemmed."""
    require_twin(name)
    lists = stopword_lists()
    if name not in lists:
        pytest.skip(f"nltk's stopword list of {name} is not in the test data ({NLTK_DATA})")
    own = lists[name]
    words = own + [w.upper() for w in own] + built_words(name)[::5]
    assert_same(name, words, own)


# ------------------------------------------------------------------------------------ hypothesis
def _words_of(name: str):
    spec = LANGUAGES[name]
    letters = sorted(set(spec["letters"] + spec["letters"].upper() + "aeiou" + "-'0"))
    text = st.text(alphabet=letters, max_size=10)
    suffixes = st.lists(st.sampled_from(literals(name)), max_size=3).map("".join)
    return st.builds(lambda a, b: a + b, text, suffixes) | st.text(alphabet=letters, max_size=20)


@pytest.mark.parametrize("name", NAMES)
def test_hypothesis_words_over_the_alphabet_and_suffixes(name):
    require_twin(name)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(words=st.lists(_words_of(name), min_size=1, max_size=40))
    def check(words):
        assert_same(name, words)

    check()


@pytest.mark.integration
@pytest.mark.parametrize("name", NAMES)
def test_hypothesis_words_many(name):
    require_twin(name)

    @settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(words=st.lists(_words_of(name), min_size=1, max_size=60))
    def check(words):
        assert_same(name, words)

    check()
