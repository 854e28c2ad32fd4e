"""Victor (seed 003): cleaning as sequence labelling of text blocks with a linear-chain CRF.

- :mod:`.config`   — Victor-style configuration (``variable: value``): discretisation,
  tag classes, regular expressions, feature list and CRF templates.
- :mod:`.features` — the features of seed 003 §4, computed in one pass over a page's blocks.
- :mod:`.crf`      — training and tagging with CRFsuite (python-crfsuite).
- :mod:`.anno`     — the ``.anno`` annotation format (seed 003 §2.3), read and written.
- :mod:`.align`    — labels for a page's blocks from gold text, with an alignment report.
- :mod:`.crossval` — k-fold cross-validation and feature ablations (seed 003 Table 6.1).
"""
