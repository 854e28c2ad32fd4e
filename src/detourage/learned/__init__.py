"""detourage's own extractor: a block classifier learned from gold.

The unit is the paragraph of the shared block model (runs not separated by a block-level
tag, :attr:`detourage.model.Block.paragraph`).  :mod:`.features` describes each paragraph
by features meant to carry across sites — its text's shape, its containers' tags and
class/id vocabulary up to ``<body>``, densities of the subtrees around it, a
Readability-style container score, its neighbours, hints from ``<title>``, ``og:`` and
JSON-LD — as one float matrix computed with numpy over the whole page.  :mod:`.forest`
holds a gradient-boosted tree ensemble as plain arrays (no scikit-learn needed to run
it) with a compiled scorer; :mod:`.train` labels dataset pages with the gold aligner and
fits the ensemble with scikit-learn.  The method itself is
:mod:`detourage.methods.learned`.
"""
