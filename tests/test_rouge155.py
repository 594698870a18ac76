"""The ROUGE-1.5.5 preset (rouge_metric.rouge155, rouge_metric.perl_porter) against the Perl script's
printed numbers (../shared/golden) and, where the logic is Perl's own (rand, sprintf), against perl."""

import json
import random
import shutil
import subprocess

import pytest

from rouge_metric import Rouge, Rouge155
from rouge_metric.perl_porter import stem
from rouge_metric.aggregate import perl_rand_indices
from rouge_metric.rouge155 import perl_bootstrap, perl_label, perl_tokens, perl_units

TYPES = ["rouge1", "rouge2", "rouge3", "rouge4", "rougeLsum", "rougeW", "rougeS4", "rougeSU4", "rougeS", "rougeSU"]
PERL = shutil.which("perl")


def _golden_lines(shared_dir, name):
    path = shared_dir / "golden" / name
    if not path.exists():
        pytest.skip(f"{path} missing")
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def _check_golden(shared_dir, lines, backend):
    """Count exact matches of the rounded R/P/F of every measure; return (matches, total, mismatches)."""
    gold = shared_dir / "golden"
    scorers = {}
    ok = total = 0
    bad = []
    for d in lines:
        key = (d["formula"], d.get("stem", False), d.get("stopwords", False))
        if key not in scorers:
            scorers[key] = Rouge155(
                TYPES, multi_ref=d["formula"], use_stemmer=key[1],
                exceptions=str(gold / "wordnet-2.0-exceptions.tsv") if key[1] else None,
                stopwords=str(gold / "smart_common_words.txt") if key[2] else None, backend=backend)
        sc = scorers[key]
        got = sc.score(prediction="\n".join(d["candidate"]), references=["\n".join(r) for r in d["references"]])
        for spec in sc.specs:
            want = d["scores"][perl_label(spec)]
            s = got[spec.name]
            for k, v in (("R", s.recall), ("P", s.precision), ("F", s.fmeasure)):
                total += 1
                if v == want[k]:
                    ok += 1
                else:
                    bad.append((d["id"], d.get("setting", d["formula"]), perl_label(spec), k, v, want[k]))
    return ok, total, bad


# ------------------------------------------------------------------------------------ golden
@pytest.mark.parametrize("backend", ["python", None])
def test_synthetic_golden_every_value(shared_dir, backend):
    lines = _golden_lines(shared_dir, "rouge155-synthetic.jsonl")
    ok, total, bad = _check_golden(shared_dir, lines, backend)
    assert total == 440 * 30
    assert not bad, bad[:5]


@pytest.mark.integration
def test_realistic_golden_every_value(shared_dir):
    """2,000 lines x 10 measures x R/P/F on raw text, with and without -m and -s (active backend)."""
    lines = _golden_lines(shared_dir, "rouge155-realistic.jsonl")
    ok, total, bad = _check_golden(shared_dir, lines, None)
    assert total == 2000 * 30
    assert not bad, f"{len(bad)} of {total} differ: {bad[:5]}"


@pytest.mark.integration
def test_realistic_golden_python_backend_sample(shared_dir):
    lines = _golden_lines(shared_dir, "rouge155-realistic.jsonl")[::20]
    assert {d["setting"] for d in lines} == {"A", "B", "A-m", "B-m", "A-s"}
    ok, total, bad = _check_golden(shared_dir, lines, "python")
    assert not bad, bad[:5]


# -------------------------------------------------------------------------------- text pipeline
@pytest.mark.parametrize("text,want", [
    # facts confirmed on the Perl runs of the golden files (golden/README.md)
    ("café naïve Straße İstanbul", ["caf", "na", "ve", "stra", "e", "stanbul"]),
    ("cafe\u0301", ["cafe"]),
    ("中文 Русский ＡＢＣ 😀", []),
    ("$5 costs", ["5", "costs"]),
    ("state-of-the-art", ["state", "of", "the", "art"]),
    ("Hyphen-ated e-mail U.S.A. 3.14", ["hyphen", "ated", "e", "mail", "u", "s", "a", "3", "14"]),
    ("KELVIN \u212a", ["kelvin"]),  # only A-Z are lowercased; the Kelvin sign is non-ASCII
])
def test_perl_tokens(text, want):
    assert perl_tokens(text) == want


def test_only_newline_ends_a_sentence():
    text = "a\rb\x0bc\x0cd\x85e\u2028f\u2029g\nh"
    whole, units = perl_units(text)
    assert units == ["a\rb\x0bc\x0cd\x85e\u2028f\u2029g", "h"]
    assert perl_tokens(whole) == list("abcdefgh")


def test_byte_limit_reproduces_the_readtext_lcs_bug():
    # notes 3.10: cand ["ab","cd"], ref ["ab","cd"], -b 3: ROUGE-1 R = 1 but ROUGE-L R = 0.5
    r = Rouge155(["rouge1", "rougeLsum"], byte_limit=3)
    s = r.score(prediction="ab\ncd", references=["ab\ncd"])
    assert s["rouge1"].recall == 1.0
    assert s["rougeLsum"].recall == 0.5
    assert perl_units("ab\ncd", byte_limit=3) == ("ab c", ["ab", "cd"])
    # bytes, not characters: "é" is 2 bytes
    assert perl_units("aé\nb", byte_limit=2)[0] == "a\xc3"


def test_word_limit_counts_raw_words():
    # -l counts split(/\s+/) words of the raw line: "U.S.A." is one word and three tokens
    whole, units = perl_units("U.S.A. is big\nsecond line", length_limit=2)
    assert whole == "U.S.A. is" and units == ["U.S.A. is"]
    assert perl_tokens(whole) == ["u", "s", "a", "is"]
    whole, units = perl_units("one two\nthree four five", length_limit=4)
    assert whole == "one two three four" and units == ["one two", "three four"]
    r = Rouge155(["rouge1"], length_limit=2)
    assert r.score(prediction="a b c d", references=["a b x y"])["rouge1"] == (1.0, 1.0, 1.0)
    assert "limit:l=2" in r.signature()


# ------------------------------------------------------------------------------------- stemming
def test_perl_porter_lin_step4_change():
    # golden/README.md: agreement -> agreem, government -> govern (nltk's Porter: agreement, govern)
    assert stem("agreement") == "agreem"
    assert stem("government") == "govern"
    from nltk.stem.porter import PorterStemmer

    assert PorterStemmer().stem("agreement") == "agreement"


def test_exception_list_and_length_rule(shared_dir):
    exc = str(shared_dir / "golden" / "wordnet-2.0-exceptions.tsv")
    r = Rouge155(["rouge1"], use_stemmer=True, exceptions=exc)
    toks, _ = r.process("He went home; she ran. The children were better runners than mice. apparatus")
    # went -> go, were -> be (exceptions); ran: <= 3 characters are never stemmed or looked up;
    # apparatus -> apparatus (a self-mapping entry bypasses Porter, which would give "apparatu")
    assert toks == ["he", "go", "home", "she", "ran", "the", "child", "be", "well", "runner", "than",
                    "mouse", "apparatus"]
    assert stem("apparatus") == "apparatu"
    assert "stem:perl_porter+exc:" in r.signature() and "(n=5930)" in r.signature()


def test_perl_porter_is_a_named_stemmer_of_the_core():
    r = Rouge(["rouge1"], tokenizer="perl", use_stemmer="perl_porter")
    toks, _ = r.process("The agreement's governments")
    assert toks == ["the", "agreem", "s", "govern"]
    assert "tok:perl|stem:perl_porter" in r.signature()


# ------------------------------------------------------------------------------------ validation
def test_validation_errors():
    with pytest.raises(ValueError, match="rougeL' has no ROUGE-1.5.5 counterpart"):
        Rouge155(["rougeL"])
    with pytest.raises(ValueError, match=r"exceptions: ROUGE-1.5.5's -m"):
        Rouge155(["rouge1"], use_stemmer=True)
    with pytest.raises(ValueError, match=r"multi_ref: invalid value 'max'"):
        Rouge155(["rouge1"], multi_ref="max")
    with pytest.raises(ValueError, match="length_limit and byte_limit"):
        Rouge155(["rouge1"], length_limit=10, byte_limit=10)
    with pytest.raises(ValueError, match=r"alpha: expected a number in \[0, 1\]"):
        Rouge155(["rouge1"], alpha=2)
    with pytest.raises(ValueError, match=r"rouge_types: invalid rouge type 'rougeX'"):
        Rouge155(["rougeX"])
    with pytest.raises(FileNotFoundError, match="exceptions: cannot read"):
        Rouge155(["rouge1"], use_stemmer=True, exceptions="/nonexistent/exc.tsv")


def test_rouge_w_with_an_empty_reference_is_a_clear_error():
    r = Rouge155(["rouge1", "rougeW"])
    with pytest.raises(ValueError, match=r"references\[1\]\[0\]: ROUGE-W is undefined for a reference without tokens"):
        r.compute(predictions=["a b", "c"], references=[["a b"], [" ... "]])
    # without rougeW the script (and the preset) score the empty reference as 0
    s = Rouge155(["rouge1", "rougeLsum"]).score(prediction="a", references=["!!"])
    assert s["rouge1"] == (0.0, 0.0, 0.0)


def test_f_is_computed_from_the_rounded_p_and_r():
    r = Rouge155(["rouge1"], alpha=0.2)
    s = r.score(prediction="a b c d e f g", references=["a b c x y z"])["rouge1"]
    p, rr = round(3 / 7, 5), round(3 / 6, 5)
    assert (s.precision, s.recall) == (p, rr)
    assert s.fmeasure == float("%.5f" % (p * rr / (0.8 * p + 0.2 * rr)))


# ------------------------------------------------------------------------------------- bootstrap
@pytest.mark.skipif(PERL is None, reason="perl is not installed")
def test_drand48_sequence_is_perls():
    for seed, n in [(0, 7), (1, 300), (999, 50)]:
        out = subprocess.run([PERL, "-e", f"srand({seed}); print join(',', map {{ int(rand({n})) }} 1..{n})"],
                             capture_output=True, text=True, check=True).stdout
        assert [int(step[seed]) for step in perl_rand_indices(seed + 1, n)] == [int(x) for x in out.split(",")]


_PERL_AVERAGES = r"""
# computeAverages/bootstrapResampling as described in notes 3.8, in Perl, on R P F triples from stdin
my @v; while (<STDIN>) { chomp; push @v, [split / /]; }
my ($R, $cf) = @ARGV; my $n = scalar @v; my @means = ([], [], []);
for (my $i = 0; $i < $R; $i++) {
  srand($i); my @s;
  for (my $k = 0; $k < $n; $k++) { my $r = int(rand($n));
    if (!@s) { @s = @{$v[$r]}; } else { $s[$_] += $v[$r][$_] for 0..2; } }
  push @{$means[$_]}, $s[$_] / $n for 0..2;
}
my $delta = $R * ((100 - $cf) / 2.0) / 100.0; my $ua = int($R - $delta - 1); my $la = int($delta);
my $ratio = $R - $delta - 1 - $ua;
for my $k (0..2) { my @s = sort { $a <=> $b } @{$means[$k]}; my $t = 0; $t += $_ for @s;
  printf("%7.5f %7.5f %7.5f\n", $t / $R, $s[$la] + ($s[$la + 1] - $s[$la]) * $ratio,
         $s[$ua] + ($s[$ua + 1] - $s[$ua]) * $ratio); }
"""


@pytest.mark.skipif(PERL is None, reason="perl is not installed")
@pytest.mark.parametrize("n,R,cf", [(37, 200, 95), (5, 100, 90), (120, 50, 99)])
def test_bootstrap_matches_perl(n, R, cf):
    rng = random.Random(n)
    vals = [tuple(round(rng.random(), 5) for _ in range(3)) for _ in range(n)]
    text = "".join("%.5f %.5f %.5f\n" % v for v in vals)
    out = subprocess.run([PERL, "-e", _PERL_AVERAGES, str(R), str(cf)], input=text, capture_output=True,
                         text=True, check=True).stdout.split("\n")
    avg, low, high = perl_bootstrap(vals, R, cf)
    for k in range(3):
        assert [float(x) for x in out[k].split()] == [avg[k], low[k], high[k]]


def test_compute_orders_instances_as_strings_and_reports_perl_averages():
    preds = [f"w{i} common tokens here" for i in range(12)]
    refs = [[f"w{i} common words" if i % 3 else "other text entirely"] for i in range(12)]
    r = Rouge155(["rouge1"], n_resamples=100)
    res = r.compute(predictions=preds, references=refs, return_per_example=True)
    per = res.per_example
    order = sorted(range(12), key=lambda i: f"{i + 1}.1")  # "1.1" < "10.1" < "11.1" < "12.1" < "2.1" ...
    assert order[:5] == [0, 9, 10, 11, 1]
    vals = [(per[i]["rouge1"].recall, per[i]["rouge1"].precision, per[i]["rouge1"].fmeasure) for i in order]
    avg, low, high = perl_bootstrap(vals, 100, 95)
    assert res.scores["rouge1"] == (avg[1], avg[0], avg[2])
    assert res.ci["rouge1"].low == (low[1], low[0], low[2]) and res.ci["rouge1"].high == (high[1], high[0], high[2])
    assert res.confidence_level == 0.95 and "agg:perl_bootstrap(n=100,ci=95)" in res.signature
    # the order matters: other ids give other resamples
    other = r.compute(predictions=preds, references=refs, ids=[f"x{i:02d}" for i in range(12)])
    assert other.scores["rouge1"] != res.scores["rouge1"] or other.ci["rouge1"] != res.ci["rouge1"]


def test_signature_names_every_setting(shared_dir):
    gold = shared_dir / "golden"
    r = Rouge155(["rouge1", "rougeW"], multi_ref="B", alpha=0.2, use_stemmer=True,
                 exceptions=str(gold / "wordnet-2.0-exceptions.tsv"), stopwords=str(gold / "smart_common_words.txt"),
                 byte_limit=665, wlcs_weight=1.5, n_resamples=10, confidence=90)
    sig = r.signature()
    n_stop = len({w for w in (gold / "smart_common_words.txt").read_text().split("\n") if w})  # 598 lines, 2 repeated
    for part in ("preset:rouge155", "types:rouge1,rougeW", "tok:perl", "stem:perl_porter+exc:", f"(n={n_stop})",
                 "limit:b=665", "w:1.5", "multiref:best_recall", "f:alpha=0.2", "agg:perl_bootstrap(n=10,ci=90)"):
        assert part in sig


def test_from_perl_options_reproduces_the_golden_runs(shared_dir):
    """Each golden line was produced by two Perl runs; their option strings build the same scorers."""
    gold = shared_dir / "golden"
    lines = _golden_lines(shared_dir, "rouge155-realistic.jsonl")[::10]
    scorers = {}
    for d in lines:
        for opts in d["options"].split(";"):
            opts = opts.strip() + (" -m" if d["stem"] else "") + (" -s" if d["stopwords"] else "")
            if opts not in scorers:
                scorers[opts] = Rouge155.from_perl_options(
                    opts, exceptions=str(gold / "wordnet-2.0-exceptions.tsv"),
                    stopwords=str(gold / "smart_common_words.txt"))
            sc = scorers[opts]
            got = sc.score(prediction="\n".join(d["candidate"]), references=["\n".join(r) for r in d["references"]])
            for spec in sc.specs:
                want = d["scores"][perl_label(spec)]
                s = got[spec.name]
                assert (s.recall, s.precision, s.fmeasure) == (want["R"], want["P"], want["F"]), (d["id"], opts)
    assert {t for sc in scorers.values() for t in sc.rouge_types} == set(TYPES)


@pytest.mark.parametrize("opts,types", [
    ("-n 2", ("rouge1", "rouge2", "rougeLsum")),
    ("-a -c 95 -2 -1 -u -x", ("rougeSU",)),
    ("-x -2 4", ("rougeS4",)),
    ("-n4 -w 1.5 -x", ("rouge1", "rouge2", "rouge3", "rouge4", "rougeW")),
])
def test_from_perl_options_types(opts, types):
    assert Rouge155.from_perl_options(opts).rouge_types == types


@pytest.mark.parametrize("opts,msg", [
    ("-n 2 -m", "-m needs exceptions="), ("-s", "-s needs stopwords="), ("-3 HM", "-3 .BE scoring"),
    ("-t 1", "-t 1/-t 2"), ("-q", "unknown option -q"), ("-n two", "-n expects a int"),
    ("-n 2 config.xml", "unexpected argument 'config.xml'"), ("-x", "no measure selected"),
])
def test_from_perl_options_errors(opts, msg):
    with pytest.raises(ValueError, match=msg):
        Rouge155.from_perl_options(opts)


# ------------------------------------------------------------------------- random inputs
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rouge_metric import core  # noqa: E402

try:
    from strategies import references_lists, texts
except ImportError:  # pragma: no cover - run from another directory
    from tests.strategies import references_lists, texts

_BYTE_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


@settings(max_examples=300, deadline=None)
@given(texts())
def test_perl_tokens_equal_the_byte_level_definition(text):
    # Oracle: the script's steps on the UTF-8 bytes (tr/A-Z/a-z/; s/-/ - /g; s/[^A-Za-z0-9\-]/ /g; split;
    # keep /^[a-z0-9\$]/), written independently on bytes.
    b = text.encode("utf-8").translate(_BYTE_LOWER).replace(b"-", b" - ")
    b = bytes(c if (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122 or c == 45) else 32 for c in b)
    want = [t.decode() for t in b.split() if t[:1].isalnum() or t[:1] == b"$"]
    assert perl_tokens(text) == want


@pytest.mark.skipif(not core.native_available(), reason="native backend not built")
@settings(max_examples=60, deadline=None)
@given(texts(), references_lists, st.sampled_from(["A", "B"]), st.sampled_from([None, 5, 12]))
def test_backends_agree_on_random_text(pred, refs, formula, limit):
    refs = ["x\n" + r for r in refs]  # ROUGE-W needs reference tokens (a first line kept by any limit)
    a = Rouge155(TYPES, multi_ref=formula, byte_limit=limit, backend="python")
    b = Rouge155(TYPES, multi_ref=formula, byte_limit=limit, backend="native")
    assert a.score(prediction=pred, references=refs) == b.score(prediction=pred, references=refs)


@settings(max_examples=200, deadline=None)
@given(texts(), st.sampled_from([0, 1, 3, 8, 20]), st.sampled_from([0, 2, 7, 30]))
def test_token_views_follow_readtext_and_readtext_lcs(text, words, nbytes):
    """The whole-text tokens are those of readText's text, the units those of readText_LCS's units."""
    for kw in ({"length_limit": words or None}, {"byte_limit": nbytes or None}):
        r = Rouge155(["rouge1", "rougeLsum"], **kw)
        whole, units = perl_units(text, kw.get("length_limit") or 0, kw.get("byte_limit") or 0)
        tokens, unit_tokens = r.process(text)
        assert tokens == perl_tokens(whole or "")
        assert unit_tokens == [perl_tokens(u) for u in units]


def test_exception_list_file_errors_name_argument_and_file(tmp_path):
    from rouge_metric.rouge155 import load_exceptions

    bad = tmp_path / "exc.tsv"
    bad.write_bytes(b"went\tgo\n\xff\xfe\tx\n")
    with pytest.raises(ValueError, match=r"exceptions: the exception list .*exc.tsv.* is not UTF-8"):
        load_exceptions(str(bad))
    with pytest.raises(FileNotFoundError, match=r"exceptions: cannot read the exception list .*missing.tsv"):
        load_exceptions(str(tmp_path / "missing.tsv"))
    bad.write_text("went go\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"exceptions: line 1 of .* is not 'inflected<TAB>lemma'"):
        load_exceptions(str(bad))
