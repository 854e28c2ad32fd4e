"""detourage inside the tools people already run.

- :mod:`detourage.integrations.datatrove`: an extractor step for Hugging Face's datatrove
  (``WarcReader → Detourage() → JsonlWriter``), where its trafilatura step goes (the
  ``datatrove`` extra).
"""
