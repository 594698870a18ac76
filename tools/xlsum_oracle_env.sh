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
#
# It also installs the oracles of the Chinese and Japanese harness recipes (tests/test_opencompass.py):
# rouge-chinese 1.0.3 (OpenCompass's JiebaRougeEvaluator) and sumeval 0.2.2 (with janome, its Japanese
# tokenizer when MeCab is absent; jieba is above). Both go into folders of their own under ORACLES (default
# build/oracles; the tests look there, or in $ROUGE_METRIC_ORACLES), not into the environment:
#   - the rouge-chinese wheel also ships a top-level `rouge` package (a copy of rouge_chinese) that would
#     replace pltrdy's `rouge` 1.0.1, the LongBench oracle; the copy and the wheel's top-level `bin` package
#     are deleted after the install;
#   - sumeval 0.2.2 is an sdist whose setup.py needs setuptools_scm at build time: `--use-pep517` builds it
#     in an isolated environment (without it pip's legacy path fetches a setuptools_scm that cannot import).
set -euo pipefail
PYTHON="${PYTHON:-python}"
ORACLES="${ORACLES:-$(cd "$(dirname "$0")/.." && pwd)/build/oracles}"
"$PYTHON" -m pip install "jieba>=0.42" "fugashi>=1.3" "unidic-lite>=1.0.8" "pythainlp>=4" "pyonmttok>=1.37" \
    "TurkishStemmer>=1.3" absl-py "six>=1.14" nltk numpy "hypothesis>=6" "pytest>=7"
"$PYTHON" -m pip install --no-deps "multilingual-rouge==0.0.1"
"$PYTHON" -m pip install "janome>=0.5"
rm -rf "$ORACLES/rouge-chinese" "$ORACLES/sumeval"
"$PYTHON" -m pip install --no-deps --target "$ORACLES/rouge-chinese" "rouge-chinese==1.0.3"
rm -rf "$ORACLES/rouge-chinese/rouge" "$ORACLES/rouge-chinese/bin"
"$PYTHON" -m pip install --no-deps --use-pep517 --target "$ORACLES/sumeval" "sumeval==0.2.2"
rm -rf "$ORACLES/sumeval/bin"  # its console script
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
PYTHONPATH="$ORACLES/rouge-chinese:$ORACLES/sumeval" "$PYTHON" - <<'PY'
import rouge_chinese
from sumeval.metrics.rouge import RougeCalculator
print("harness oracles ready: rouge-chinese", rouge_chinese.__version__,
      RougeCalculator(lang="ja").rouge_1("東京に住む", "東京都に住む"))
PY
