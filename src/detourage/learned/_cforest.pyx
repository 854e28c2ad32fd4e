# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of :meth:`detourage.learned.forest.Forest.raw_scores_numpy`.

Every row walks every tree from its root to a leaf; the raw score is the bias plus the
leaves' values.  Same arrays, and the same comparisons: each float64 threshold comes as
the largest float32 at most equal to it (``Forest.threshold32``), and a float32 feature
is at most the one exactly when it is at most the other, without a conversion per node;
so the result equals the numpy walk up to summation order.
"""

import numpy as np
cimport numpy as cnp

cnp.import_array()


def raw_scores(const float[:, ::1] X, const int[::1] feature, const float[::1] threshold,
               const int[::1] left, const int[::1] right, const double[::1] value,
               const int[::1] roots, double bias):
    cdef Py_ssize_t n = X.shape[0], trees = roots.shape[0], i, t
    cdef int node
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] res = out
    with nogil:
        # tree by tree, every row through it: one tree's nodes stay in the L1 cache while
        # the rows pass (the whole ensemble does not); each row still adds its leaves in
        # tree order, so the sums are those of a row-by-row walk
        for i in range(n):
            res[i] = bias
        for t in range(trees):
            for i in range(n):
                node = roots[t]
                while left[node] >= 0:
                    if X[i, feature[node]] <= threshold[node]:
                        node = left[node]
                    else:
                        node = right[node]
                res[i] += value[node]
    return out
