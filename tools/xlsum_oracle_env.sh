#!/usr/bin/env bash
# Installs the oracle of tests/test_xlsum.py into the environment of PYTHON (default: python): XL-Sum's
# scorer as packaged on PyPI (multilingual-rouge 0.0.1) with the segmenters and stemmers it imports, and the
# `multilingual` extra of this package. Everything comes from PyPI.
#
#   PYTHON=/path/to/venv/bin/python bash tools/xlsum_oracle_env.sh
#
# multilingual-rouge requires fugashi[unidic]; the `unidic` package without its downloaded dictionary stops
# fugashi from loading unidic-lite, so it is installed without dependencies and unidic-lite is used by both
# sides. Two things the tests need are data, not packages, and are not installed here:
#   - nltk's stopwords corpus (Snowball with ignore_stopwords=True): point NLTK_DATA at a copy;
#   - bengali-stemmer's common.rules (MIT; github.com/abhik1505040/bengali-stemmer; not on PyPI, and missing
#     from the multilingual-rouge wheel): point ROUGE_METRIC_BENGALI_RULES at a copy.
# The tests skip, saying which is missing, without them.
set -euo pipefail
PYTHON="${PYTHON:-python}"
"$PYTHON" -m pip install "jieba>=0.42" "fugashi>=1.3" "unidic-lite>=1.0.8" "pythainlp>=4" "pyonmttok>=1.37" \
    "TurkishStemmer>=1.3" absl-py "six>=1.14" nltk numpy "hypothesis>=6" "pytest>=7"
"$PYTHON" -m pip install --no-deps "multilingual-rouge==0.0.1"
if "$PYTHON" -c "import unidic" 2>/dev/null; then
    echo "note: the 'unidic' package is installed; unless its dictionary is downloaded (python -m unidic download)," \
         "fugashi fails instead of using unidic-lite: uninstall it or download the dictionary" >&2
fi
"$PYTHON" - <<'PY'
import multilingual_rouge.rouge_scorer as rs
import warnings
warnings.simplefilter("ignore")
print("oracle ready:", rs.RougeScorer(["rouge1"], lang="chinese").score("今天天气很好", "今天天气不错")["rouge1"])
PY
