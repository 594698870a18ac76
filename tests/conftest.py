"""Shared test setup: offline Hugging Face libraries, one torch thread, the ../shared folder."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("HF_EVALUATE_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared beside the checkout (golden vectors, corpora); tests using it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present beside the checkout")
    return SHARED


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    return REPO


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory) -> Path:
    """Where a browser test writes its screenshots: ``$ROUGE_METRIC_ARTIFACTS`` (to look at them after the
    run), otherwise a temporary folder; never the repository."""
    out = Path(os.environ.get("ROUGE_METRIC_ARTIFACTS") or tmp_path_factory.mktemp("artifacts"))
    out.mkdir(parents=True, exist_ok=True)
    return out
