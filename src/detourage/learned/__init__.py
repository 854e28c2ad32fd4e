"""detourage's own extractor: a block classifier learned from gold.

The unit is the paragraph of the shared block model (runs not separated by a block-level
tag, :attr:`detourage.model.Block.paragraph`).  :mod:`.features` describes each paragraph
by features meant to carry across sites — its text's shape, its containers' tags and
class/id vocabulary up to ``<body>``, densities of the subtrees around it, a
Readability-style container score, its neighbours, hints from ``<title>``, ``og:`` and
JSON-LD — as one float matrix computed with numpy over the whole page.
:mod:`.context` adds, for a second stage, what a first stage thought of the paragraph's
container, ancestors, neighbours and page (auto-context).  :mod:`.forest` holds the
gradient-boosted tree ensembles as plain arrays (no scikit-learn needed to run them)
with a compiled scorer; :mod:`.train` labels dataset pages with the gold aligner and
fits both stages with scikit-learn, the first out of fold.  :mod:`.rules` holds the
page-level rules that keep the content once the trees have scored every paragraph (one
module per family of steps, with their compiled twins); the registry's adapter is
:mod:`detourage.methods.learned`.
"""
