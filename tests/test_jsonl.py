"""JSON Lines input (rouge_metric/jsonl.py): one reader for the command line and generate_and_score."""

import pytest

from rouge_metric import cli, generate_and_score
from rouge_metric.jsonl import parse_jsonl


def test_objects_with_their_line_numbers_blank_lines_skipped():
    text = '{"a": 1}\n\n   \n{"b": [2, 3]}\n'
    assert list(parse_jsonl(text, "f.jsonl")) == [(1, {"a": 1}), (4, {"b": [2, 3]})]


@pytest.mark.parametrize("text,message", [
    ('{"a": 1}\n{"a": \n', r"^f\.jsonl:2: invalid JSON: Expecting value \(column 7\)$"),
    ('{"a": 1}\n\n[1, 2]\n', r"^f\.jsonl:3: expected a JSON object per line, got list$"),
    ('"text"\n', r"^f\.jsonl:1: expected a JSON object per line, got str$"),
])
def test_errors_name_the_file_and_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        list(parse_jsonl(text, "f.jsonl"))


def test_the_command_line_and_generate_and_score_report_the_same_error(tmp_path, capsys):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"document": "a", "prediction": "a", "references": "b"}\n[1]\n', encoding="utf-8")
    want = f"{path}:2: expected a JSON object per line, got list"
    code = cli.main(["score", "--predictions", str(path)])
    assert code == cli.EXIT_FORMAT and want in capsys.readouterr().err
    with pytest.raises(ValueError) as info:
        generate_and_score(lambda docs: docs, str(path), progress=False)
    assert want in str(info.value)
