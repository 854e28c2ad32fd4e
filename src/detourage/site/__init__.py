"""Cross-page détourage (seed 004): pages of one site that share a template are compared
with each other, and what differs between them is the useful content.

* :mod:`detourage.site.distance` — the structural distance between pages (a fast MinHash
  estimate used by default, an exact tree edit distance for checking);
* :mod:`detourage.site.cluster` — a site's pages grouped into templates (seed 004's MDS +
  K-Means, or deterministic average-linkage clustering; k by silhouette; medoid pivots;
  singletons are outliers);
* :mod:`detourage.site.content` — differing text between a page and its template, and
  the seed's heuristics that choose the element holding the article body;
* :mod:`detourage.site.template` — fit once (per site, per template: common text, the
  pivot's texts), save, apply to new pages; the ``template`` method uses it.

Clustering needs the ``site`` extra (scikit-learn).
"""
