# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled twins of the two tests the learned extractor's page-level steps ask most
often (:mod:`detourage.methods.learned`): whether a line and the paragraph beside it
share an ancestor (``_share_numpy``), and whether a line lies in a box named as
boilerplate that its neighbour is not in (``_clear_of_boilerplate_numpy``).

Each step asks them of a handful of lines, a dozen times a page: as array expressions
that is a dozen numpy calls each, which cost far more than the comparisons.  Same
arrays in, same booleans out.
"""

import numpy as np
cimport numpy as cnp

cnp.import_array()


def share(const long long[:, ::1] keys, const long long[::1] lines, const long long[::1] others,
          int up, int up_other):
    """For each of ``lines``: whether one of its ``up`` + 1 span keys (its container and
    the levels above, ``keys[level, paragraph]``) equals one of the ``up_other`` + 1 of
    the paragraph ``others`` beside it (-1: none, False)."""
    cdef Py_ssize_t n = lines.shape[0], j, a, b, levels = keys.shape[0]
    cdef long long line, other
    out = np.zeros(n, dtype=bool)
    cdef cnp.npy_bool[::1] res = out
    cdef int mine = min(up + 1, levels), theirs = min(up_other + 1, levels)
    with nogil:
        for j in range(n):
            line, other = lines[j], others[j]
            if other < 0:
                continue
            for a in range(mine):
                for b in range(theirs):
                    if keys[a, line] == keys[b, other]:
                        res[j] = 1
                        break
                if res[j]:
                    break
    return out


def clear_of_boilerplate(const float[:, ::1] X, const long long[::1] lines, const long long[::1] others,
                         const long long[::1] columns, long long quote, long long social):
    """For each of ``lines``: False when one of the ``columns`` (distances to a box
    named as boilerplate) is at most 1 for the line and above 3 for the paragraph
    ``others`` beside it; the column at position ``social`` (-1: none) not for a line
    of a quote (``X[line, quote]`` at most 1)."""
    cdef Py_ssize_t n = lines.shape[0], j, c, width = columns.shape[0], rows = X.shape[0]
    cdef long long line, other
    out = np.ones(n, dtype=bool)
    cdef cnp.npy_bool[::1] res = out
    cdef bint quoted
    with nogil:
        for j in range(n):
            line, other = lines[j], others[j]
            if other < 0:  # numpy's reading of a negative index
                other += rows
            quoted = X[line, quote] <= 1
            for c in range(width):
                if c == social and quoted:
                    continue
                if X[line, columns[c]] <= 1 and X[other, columns[c]] > 3:
                    res[j] = 0
                    break
    return out
