# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled twin of :meth:`detourage.learned.forest.Forest.raw_scores_numpy`.

Every row walks every tree from its root to a leaf; the raw score is the bias plus the
leaves' values.  The same trees and the same comparisons, read from the node table as
:attr:`Forest.packed` lays it out: one record a node (its threshold, its feature, -1 for
a leaf, and its right child), its left child the record after it (depth-first order),
so that a step down reads one record.  Each float64 threshold comes as the largest
float32 at most equal to it (``Forest.threshold32``), and a float32 feature is at most
the one exactly when it is at most the other, without a conversion per node; so the
result equals the numpy walk up to summation order.
"""

import numpy as np
cimport numpy as cnp

cnp.import_array()


cdef struct Node:
    float threshold
    int feature  # -1: a leaf
    int right
    int unused  # a record of 16 bytes: the next one is a shift away


def raw_scores(const float[:, ::1] X, const Node[::1] nodes, const double[::1] value,
               const int[::1] roots, double bias):
    cdef Py_ssize_t n = X.shape[0], width = X.shape[1], trees = roots.shape[0], i, t
    cdef const Node* first
    cdef const Node* at
    cdef const float* row
    out = np.empty(n, dtype=np.float64)
    cdef double[::1] res = out
    if n == 0:
        return out
    first = &nodes[0]
    with nogil:
        # tree by tree, every row through it: one tree's nodes stay in the L1 cache while
        # the rows pass (the whole ensemble does not); each row still adds its leaves in
        # tree order, so the sums are those of a row-by-row walk
        for i in range(n):
            res[i] = bias
        for t in range(trees):
            row = &X[0, 0]
            for i in range(n):
                at = first + roots[t]
                while at.feature >= 0:
                    if row[at.feature] <= at.threshold:
                        at += 1  # the left child
                    else:
                        at = first + at.right
                res[i] += value[at - first]
                row += width
    return out
