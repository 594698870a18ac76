"""Seq2SeqTrainer integration, installed as ``rouge_metric.callbacks`` (see the training issue)."""
