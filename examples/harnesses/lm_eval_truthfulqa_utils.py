"""lm-evaluation-harness plug-in: truthfulqa_gen's ROUGE through rouge_metric, same numbers.

Copy this file beside a copy of the task's yaml (``lm_eval/tasks/truthfulqa/truthfulqa_gen.yaml``) as
``utils.py`` and point the yaml at it; lm-eval loads ``!function`` entries from the task's folder::

    process_docs: !function utils.process_docs_gen
    process_results: !function utils.process_results_gen
    metric_list:            # the task's rouge entries, unchanged (aggregation: mean)
      - metric: rouge1_max
        aggregation: mean
        higher_is_better: true
      # ... rouge1_acc, rouge1_diff, rouge2_*, rougeL_*

``process_results_gen`` returns the task's nine ROUGE values per question, computed by
``rouge_metric.harnesses.truthfulqa_gen`` (one scoring pass, no per-answer bootstrap) and equal to the
task's own float for float; the BLEU entries are left out (keep the task's own function for them).
"""

from rouge_metric.harnesses import truthfulqa_gen, truthfulqa_process_doc


def process_docs_gen(dataset):
    """The task's document processing: answers end with ".", "I have no comment." is a correct answer."""

    def _process(doc):
        correct, incorrect = truthfulqa_process_doc(doc["correct_answers"], doc["incorrect_answers"])
        return {"question": doc["question"].strip(), "correct_answers": correct, "incorrect_answers": incorrect}

    return dataset.map(_process)


def process_results_gen(doc, results):
    """rouge{1,2,L}_{max,acc,diff} of the completion ``results[0]`` (the task's keys and values)."""
    r = truthfulqa_gen([results[0]], [doc["correct_answers"]], [doc["incorrect_answers"]])
    return r.per_example[0]
