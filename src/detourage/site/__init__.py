"""Cross-page détourage (seed 004): pages of one site that share a template are compared
with each other, and what differs between them is the useful content.  This package holds
the pieces of that road — first :mod:`detourage.site.distance`, the structural distance
between pages (a fast MinHash estimate used by default, an exact tree edit distance for
checking) on which grouping pages by template rests — and :mod:`detourage.site.cluster`,
which groups a site's pages into templates (seed 004's MDS + K-Means, or deterministic
average-linkage clustering; k by silhouette; medoid pivots; singletons are outliers).
Clustering needs the ``site`` extra (scikit-learn).
"""
