# cython: boundscheck=False, wraparound=False, cdivision=True
"""Compiled twins of the learned extractor's page-level steps
(:mod:`detourage.learned.rules`): the two tests they ask most often, whether a line
and the paragraph beside it share an ancestor (``ancestors.share_numpy``) and whether a
line lies in a box named as boilerplate that its neighbour is not in
(``ancestors.clear_of_boilerplate_numpy``), and the boundary-line and figure steps whole
(``boundary.keep_boundary_lines_numpy``, ``figures.keep_figures_numpy``).

Each step asks its tests of a handful of lines, a dozen times a page: as array
expressions that is a dozen numpy calls each, which cost far more than the comparisons.
Same arrays in, same booleans out.  A step's constants, feature columns and boxes come
by name, as the attributes of one object (``boundary.BoundaryParameters``,
``figures.FigureParameters``), read once a call.
"""

import numpy as np
cimport numpy as cnp

cnp.import_array()


cdef inline bint _shares(const long long[:, ::1] keys, Py_ssize_t line, Py_ssize_t other,
                         int up, int up_other) noexcept nogil:
    """``share`` of one line and one paragraph beside it (``other`` at least 0)."""
    cdef Py_ssize_t a, b, levels = keys.shape[0]
    cdef int mine = min(up + 1, levels), theirs = min(up_other + 1, levels)
    for a in range(mine):
        for b in range(theirs):
            if keys[a, line] == keys[b, other]:
                return True
    return False


cdef inline bint _clear(const float[:, ::1] X, Py_ssize_t line, Py_ssize_t other, const long long[::1] columns,
                        Py_ssize_t quote, Py_ssize_t social) noexcept nogil:
    """``clear_of_boilerplate`` of one line and one paragraph beside it (at least 0)."""
    cdef Py_ssize_t c
    cdef bint quoted = X[line, quote] <= 1
    for c in range(columns.shape[0]):
        if c == social and quoted:
            continue
        if X[line, columns[c]] <= 1 and X[other, columns[c]] > 3:
            return False
    return True


def share(const long long[:, ::1] keys, const long long[::1] lines, const long long[::1] others,
          int up, int up_other):
    """For each of ``lines``: whether one of its ``up`` + 1 span keys (its container and
    the levels above, ``keys[level, paragraph]``) equals one of the ``up_other`` + 1 of
    the paragraph ``others`` beside it (-1: none, False)."""
    cdef Py_ssize_t n = lines.shape[0], j
    out = np.zeros(n, dtype=bool)
    cdef cnp.npy_bool[::1] res = out
    with nogil:
        for j in range(n):
            res[j] = others[j] >= 0 and _shares(keys, lines[j], others[j], up, up_other)
    return out


def clear_of_boilerplate(const float[:, ::1] X, const long long[::1] lines, const long long[::1] others,
                         const long long[::1] columns, long long quote, long long social):
    """For each of ``lines``: False when one of the ``columns`` (distances to a box
    named as boilerplate) is at most 1 for the line and above 3 for the paragraph
    ``others`` beside it; the column at position ``social`` (-1: none) not for a line
    of a quote (``X[line, quote]`` at most 1)."""
    cdef Py_ssize_t n = lines.shape[0], j, rows = X.shape[0]
    out = np.ones(n, dtype=bool)
    cdef cnp.npy_bool[::1] res = out
    with nogil:
        for j in range(n):  # a negative ``other``: numpy's reading of a negative index
            res[j] = _clear(X, lines[j], others[j] + rows if others[j] < 0 else others[j], columns, quote, social)
    return out


cdef long long _previous_kept(const cnp.npy_bool[::1] keep, long long[::1] previous) noexcept nogil:
    """Into ``previous``: the last kept paragraph before each (-1: none); returns the
    last kept one of the page (-1: none)."""
    cdef Py_ssize_t i
    cdef long long last = -1
    for i in range(keep.shape[0]):
        previous[i] = last
        if keep[i]:
            last = i
    return last


def keep_boundary_lines(const float[:, ::1] X, cnp.npy_bool[::1] keep, const cnp.npy_bool[::1] barred,
                        const long long[::1] chars, const double[::1] probability,
                        const long long[:, ::1] keys, const int[::1] signature, list texts,
                        object address_lines, object closing_sentence, object linked_sentence, object parameters):
    """The twin of ``boundary.keep_boundary_lines_numpy`` (its lines, in order: the
    like-kept structures, the gaps, the edges), on the page's arrays: ``keep`` is changed
    in place.  ``address_lines(lines)``, ``closing_sentence(text)`` and
    ``linked_sentence(text)`` (a closing sentence with links) are the text tests, asked
    only of the lines they can still decide; ``parameters`` a
    ``boundary.BoundaryParameters``: the step's constants, the feature columns (link
    density, quote, figure, code, media distances), the boilerplate boxes' columns
    (``groups``, ``social`` the position of the social one) and the same but for the
    "meta" box (``groups_meta``, ``social_meta``)."""
    cdef Py_ssize_t n = keep.shape[0], i, j, k, line, before, after, last, stop
    cdef Py_ssize_t c_density = parameters.density, c_quote = parameters.quote, c_figure = parameters.figure
    cdef Py_ssize_t c_code = parameters.code, c_media = parameters.media
    cdef double floor = parameters.floor
    # as numpy compares them with float32 columns: float
    cdef float plain_links = parameters.plain_links, link_line = parameters.link_line
    cdef float edge_links = parameters.edge_links
    cdef long long edge_chars = parameters.edge_chars
    cdef Py_ssize_t gap = parameters.gap, edge = parameters.edge, like_count = parameters.like_kept
    cdef double like_share = parameters.like_kept_share
    cdef const long long[::1] groups = parameters.groups, groups_meta = parameters.groups_meta
    cdef Py_ssize_t social = parameters.social, social_meta = parameters.social_meta
    cdef float density
    cdef bint own_before, own_after, shared, sentence, near
    if n == 0:
        return
    eligible_a = np.zeros(n, dtype=bool)
    plain_a = np.zeros(n, dtype=bool)
    cdef cnp.npy_bool[::1] eligible = eligible_a, plain = plain_a
    candidates = []
    for i in range(n):
        density = X[i, c_density]
        plain[i] = density <= plain_links or (X[i, c_quote] <= 1 and density < 0.5)
        eligible[i] = (not barred[i] and not keep[i] and chars[i] > 0 and probability[i] >= floor
                       and X[i, c_figure] > 1 and X[i, c_code] > 0)
        if eligible[i] and not plain[i] and chars[i] <= edge_chars:
            candidates.append(i)
    if candidates:
        for i in address_lines(np.array(candidates, dtype=np.int64)):
            plain[i] = True

    # the like-kept structures
    cdef Py_ssize_t kinds = 0
    for i in range(n):
        if signature[i] + 1 > kinds:
            kinds = signature[i] + 1
    total_a, kept_a = np.zeros(kinds), np.zeros(kinds)
    count_a = np.zeros(kinds, dtype=np.int64)
    cdef double[::1] total = total_a, kept_w = kept_a
    cdef long long[::1] count = count_a
    cdef double weight
    for i in range(n):
        weight = chars[i] + 1.0
        total[signature[i]] += weight
        kept_w[signature[i]] += weight * keep[i]
        count[signature[i]] += 1
    for i in range(n):
        k = signature[i]
        if (eligible[i] and plain[i] and not X[i, c_media] <= 1 and count[k] >= like_count
                and kept_w[k] >= like_share * total[k]):
            keep[i] = True

    # the gaps: each line between the kept paragraph before it and the one after it,
    # as they were before any gap was filled
    previous_a = np.empty(n, dtype=np.int64)
    cdef long long[::1] previous = previous_a
    _previous_kept(keep, previous)
    chosen = []
    after = -1
    for line in range(n - 1, -1, -1):
        if keep[line]:
            after = line
            continue
        before = previous[line]
        if not eligible[line] or before < 0 or after < 0 or after - before - 1 > gap:
            continue
        density = X[line, c_density]
        if not (plain[line] or density >= link_line):
            continue
        own_before = _shares(keys, line, before, 1, 1)
        own_after = _shares(keys, line, after, 1, 1)
        shared = plain[line] and own_before and own_after
        if plain[line] and not shared and closing_sentence(texts[line]):
            shared = _shares(keys, line, before, 3, 2) or _shares(keys, line, after, 3, 2)
        if density >= link_line and not shared:
            shared = _shares(keys, line, before, 1, 2) and _shares(keys, line, after, 1, 2)
        shared = shared and (not X[line, c_media] <= 1 or own_before or own_after)
        if shared and _clear(X, line, before, groups, c_quote, social):
            chosen.append(line)
    for line in chosen:
        keep[line] = True

    # the edges: the short lines after each kept run, one after the other while each
    # joins the line before it (the first may also sit a level further out)
    ends = [i for i in range(n - 1) if keep[i] and not keep[i + 1]
            and (_short(eligible, plain, chars, i + 1, edge_chars) or _linked(X, eligible, plain, chars, i + 1,
                                                                             edge_chars, c_density, edge_links))]
    for last in ends:
        line = last + 1
        stop = min(n, last + 1 + edge)
        if _linked(X, eligible, plain, chars, line, edge_chars, c_density, edge_links):
            # a sentence with some links, of the run's own element or parent (a credit line)
            if (X[line, c_media] <= 1 or not _shares(keys, line, last, 1, 1) or not linked_sentence(texts[line])
                    or not _clear(X, line, last, groups, c_quote, social)):
                continue
            keep[line] = True
            line += 1
        while line < stop and _short(eligible, plain, chars, line, edge_chars) and not keep[line]:
            if not _joins(X, keys, texts, closing_sentence, line, line == last + 1, c_quote, c_media,
                          groups, social, groups_meta, social_meta):
                break
            keep[line] = True
            line += 1


cdef inline bint _linked(const float[:, ::1] X, const cnp.npy_bool[::1] eligible, const cnp.npy_bool[::1] plain,
                         const long long[::1] chars, Py_ssize_t i, long long edge_chars, Py_ssize_t c_density,
                         float edge_links) noexcept:
    return eligible[i] and not plain[i] and chars[i] <= edge_chars and X[i, c_density] < edge_links


cdef inline bint _short(const cnp.npy_bool[::1] eligible, const cnp.npy_bool[::1] plain,
                        const long long[::1] chars, Py_ssize_t i, long long edge_chars) noexcept:
    return eligible[i] and plain[i] and chars[i] <= edge_chars


cdef int _joins(const float[:, ::1] X, const long long[:, ::1] keys, list texts, object closing_sentence,
                Py_ssize_t line, bint first, Py_ssize_t c_quote, Py_ssize_t c_media,
                const long long[::1] groups, Py_ssize_t social, const long long[::1] groups_meta,
                Py_ssize_t social_meta) except -1:
    """Whether an edge line joins the line before it: ``_extend_edges``' ``joined``, or
    for the first line after the run its ``outer``; the line's text is read only when
    the answer needs it."""
    cdef Py_ssize_t before = line - 1
    cdef bint media = X[line, c_media] <= 1, quoted = X[line, c_quote] <= 1, near
    cdef int sentence = -1  # not asked yet
    if _shares(keys, line, before, 1, 1):  # the previous line's own element or parent
        near = True
    elif media or not _shares(keys, line, before, 2, 1):
        near = False
    elif quoted:
        near = True
    else:
        sentence = bool(closing_sentence(texts[line]))
        near = sentence
    if near and _clear(X, line, before, groups, c_quote, social):
        return True
    if not first or media:
        return False
    if sentence < 0:
        sentence = bool(closing_sentence(texts[line]))
    return sentence and _shares(keys, line, before, 3, 2) and _clear(X, line, before, groups_meta, c_quote, social_meta)


def keep_figures(const float[:, ::1] X, cnp.npy_bool[::1] keep, const cnp.npy_bool[::1] barred,
                 const long long[::1] chars, const long long[:, ::1] keys, object illustration,
                 object parameters):
    """The twin of ``figures.keep_figures_numpy``: ``keep`` is changed in place.
    ``illustration(paragraph)`` is the text test (images only, not all decorative), asked
    only of the images near the kept text; ``parameters`` a ``figures.FigureParameters``:
    the gap, the figure edge and the lead image's reach, the image, figure and quote
    columns, and ``groups`` and ``social`` as in ``keep_boundary_lines``."""
    cdef Py_ssize_t n = keep.shape[0], i, j, before, after
    cdef Py_ssize_t c_image = parameters.image, c_figure = parameters.figure, c_quote = parameters.quote
    cdef Py_ssize_t gap = parameters.gap, fig_edge = parameters.edge, lead = parameters.lead
    cdef const long long[::1] groups = parameters.groups
    cdef Py_ssize_t social = parameters.social
    cdef bint between, edge
    previous_a = np.empty(n, dtype=np.int64)
    cdef long long[::1] previous = previous_a
    if _previous_kept(keep, previous) < 0:
        return
    chosen = []
    after = -1
    for i in range(n - 1, -1, -1):  # each image between the kept paragraphs around it
        if keep[i]:
            after = i
            continue
        if barred[i] or not X[i, c_image] > 0:
            continue
        before = previous[i]
        between = before >= 0 and after >= 0 and after - before - 1 <= gap
        if not (between or (before >= 0 and i - before <= fig_edge) or (after >= 0 and after - i <= lead)):
            continue
        between = between and (_shares(keys, i, before, 3, 2) or _shares(keys, i, after, 3, 2))
        edge = ((before >= 0 and i - before <= fig_edge and _shares(keys, i, before, 2, 2))
                or (after >= 0 and after - i <= fig_edge and _shares(keys, i, after, 2, 2))
                or (after >= 0 and after - i <= lead and _shares(keys, i, after, 1, 2)))
        if ((between or edge) and _clear(X, i, before if before >= 0 else after, groups, c_quote, social)
                and illustration(i)):
            chosen.append(i)
    chosen.reverse()
    for i in chosen:
        keep[i] = True
    for i in chosen:  # each kept image's caption: the next or the previous paragraph
        for j in (i + 1, i - 1):
            if (0 <= j < n and not keep[j] and not barred[j] and X[j, c_figure] <= 1 and chars[j]
                    and _shares(keys, j, i, 1, 1)):
                keep[j] = True
