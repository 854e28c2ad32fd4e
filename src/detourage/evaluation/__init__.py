"""Evaluation: gold datasets (``gold``) and scores of cleaned text against them (``metrics``)."""
