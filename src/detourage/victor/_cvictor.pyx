# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twins of two hot loops of Victor (:mod:`detourage.victor`).

- :func:`groups`: per block node, the nearest enclosing ``<div>`` and ``<td>``/``<th>``
  and whether a class/id word of the noise or content vocabulary appears on the node or
  an ancestor — the walk of ``features._Groups``, reading libxml2's parent pointers and
  attribute lists instead of creating an lxml proxy per ancestor.  Group ids are node
  addresses (only equality matters); the class/id words are judged by the same Python
  function as in the reference.
- :func:`best_path`: Viterbi over per-block label scores and label bigram weights, as
  ``crf._best_path``.

``tests/test_victor.py`` checks both against the pure-Python reference.
"""

from libc.string cimport strcmp, strlen
from cpython.unicode cimport PyUnicode_DecodeUTF8

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

import numpy as np

cetree.import_lxml__etree()


cdef inline str _utf8(const char* s):
    return PyUnicode_DecodeUTF8(s, strlen(s), NULL)


cdef str _plain_value(xmlNode* c_node, const char* name):
    """The text of attribute ``name`` without namespace, "" when absent."""
    cdef xmlAttr* attr = c_node.properties
    cdef xmlNode* child
    while attr is not NULL:
        if attr.ns is NULL and strcmp(<const char*> attr.name, name) == 0:
            child = attr.children
            parts = []
            while child is not NULL:
                if child.content is not NULL:
                    parts.append(_utf8(<const char*> child.content))
                child = child.next
            return "".join(parts)
        attr = attr.next
    return ""


def groups(list nodes, flags):
    """(n, 4) int64: div id, td id, noise flag, content flag per node (None → zeros).

    ``flags(text) -> (noise, content)`` judges the class and id text of one element.
    """
    cdef Py_ssize_t n = len(nodes), i, k
    out = np.zeros((n, 4), dtype=np.int64)
    cdef long long[:, :] view = out
    cdef dict cache = {}
    cdef xmlNode* c_node
    cdef xmlNode* cur
    cdef list chain
    cdef tuple info
    cdef long long div, td, noise, content
    for i in range(n):
        node = nodes[i]
        if node is None:
            continue
        c_node = (<cetree._Element> node)._c_node
        chain = []
        cur = c_node
        info = None
        while cur is not NULL and cur.type == tree.XML_ELEMENT_NODE:
            info = cache.get(<size_t> cur)
            if info is not None:
                break
            chain.append(<size_t> cur)
            cur = cur.parent
        if info is None:
            info = (0, 0, 0, 0)
        for k in range(len(chain) - 1, -1, -1):
            cur = <xmlNode*> <size_t> chain[k]
            div, td, noise, content = info
            if strcmp(<const char*> cur.name, b"div") == 0:
                div = <long long> <size_t> cur
            elif strcmp(<const char*> cur.name, b"td") == 0 or strcmp(<const char*> cur.name, b"th") == 0:
                td = <long long> <size_t> cur
            if cur.properties is not NULL and not (noise and content):
                text = _plain_value(cur, b"class") + " " + _plain_value(cur, b"id")
                if text.strip():
                    is_noise, is_content = flags(text)
                    noise = noise or is_noise
                    content = content or is_content
            info = (div, td, noise, content)
            cache[chain[k]] = info
        view[i, 0], view[i, 1], view[i, 2], view[i, 3] = info
    return out


def best_path(double[:, :] scores, double[:, :] transitions):
    """Viterbi: the label index sequence with the highest total score."""
    cdef Py_ssize_t n = scores.shape[0], m = scores.shape[1], i, a, b, arg
    cdef double top, value
    if n == 0:
        return []
    back = np.zeros((n, m), dtype=np.intp)
    cdef Py_ssize_t[:, :] ptr = back
    best = np.array(scores[0], dtype=np.float64)
    new = np.zeros(m, dtype=np.float64)
    cdef double[:] cur = best
    cdef double[:] nxt = new
    for i in range(1, n):
        for b in range(m):
            arg = 0
            top = cur[0] + transitions[0, b]
            for a in range(1, m):
                value = cur[a] + transitions[a, b]
                if value > top:
                    top = value
                    arg = a
            ptr[i, b] = arg
            nxt[b] = top + scores[i, b]
        cur, nxt = nxt, cur
    arg = 0
    for b in range(1, m):
        if cur[b] > cur[arg]:
            arg = b
    path = [arg]
    for i in range(n - 1, 0, -1):
        arg = ptr[i, arg]
        path.append(arg)
    path.reverse()
    return path


cdef inline bint _mark(Py_UCS4 c) noexcept:
    return c == u'.' or c == u'!' or c == u'?' or c == u'。' or c == u'！' or c == u'？' or c == u'…'


cdef inline bint _closer(Py_UCS4 c) noexcept:
    return c == u'"' or c == u"'" or c == u'”' or c == u'’' or c == u'»' or c == u')' or c == u']'


cdef inline bint _opener(Py_UCS4 c) noexcept:
    return (c == u'"' or c == u"'" or c == u'“' or c == u'‘' or c == u'«' or c == u'„' or c == u'¿'
            or c == u'¡' or c == u'(')


cdef inline bint _number_tail(Py_UCS4 c) noexcept:
    return (c.isdecimal() or c == u'.' or c == u',' or c == u':' or c == u'/' or c == u'%'
            or c == u'-')


cdef int _token_class(str text, Py_ssize_t a, Py_ssize_t b, const unsigned char[:] strip) except -1:
    """0 word, 1 number, 2 mix, 3 other, for text[a:b] stripped of ``strip`` characters."""
    cdef Py_UCS4 c
    cdef Py_ssize_t i
    cdef bint alpha = True, any_alpha = False, any_decimal = False
    while a < b and text[a] < 0x10000 and strip[<Py_ssize_t> text[a]]:
        a += 1
    while b > a and text[b - 1] < 0x10000 and strip[<Py_ssize_t> text[b - 1]]:
        b -= 1
    if a == b:
        return 3
    for i in range(a, b):
        c = text[i]
        if c.isalpha():
            any_alpha = True
        else:
            alpha = False
            if c.isdecimal():
                any_decimal = True
    if alpha:
        return 0
    i = a
    if text[i] == u'+' or text[i] == u'-':
        i += 1
    if i < b and text[i].isdecimal():
        i += 1
        while i < b and _number_tail(text[i]):
            i += 1
        if i == b:
            return 1
    return 2 if any_alpha and any_decimal else 3


def scan(list texts, stopwords, const unsigned char[:] strip):
    """``features.scan`` for every text: (n, 8) float64 columns and the duplicate keys."""
    cdef Py_ssize_t n = len(texts), i, j, k, length, start, a, b
    out = np.zeros((n, 8), dtype=np.float64)
    cdef double[:, :] view = out
    cdef list keys = []
    cdef str text
    cdef Py_UCS4 c, first
    cdef int kind
    for i in range(n):
        text = texts[i]
        length = len(text)
        letters = []
        j = 0
        while j < length:  # tokens: maximal runs of non-space characters
            while j < length and text[j].isspace():
                j += 1
            if j >= length:
                break
            start = j
            while j < length and not text[j].isspace():
                j += 1
            kind = _token_class(text, start, j, strip)
            view[i, kind] += 1
            if kind == 0:
                a, b = start, j
                while a < b and text[a] < 0x10000 and strip[<Py_ssize_t> text[a]]:
                    a += 1
                while b > a and text[b - 1] < 0x10000 and strip[<Py_ssize_t> text[b - 1]]:
                    b -= 1
                if text[a:b].lower() in stopwords:
                    view[i, 4] += 1
        k = 0
        while k < length:  # sentences: runs of marks followed by space, closer or end
            if _mark(text[k]):
                while k < length and _mark(text[k]):
                    k += 1
                if k == length or text[k].isspace() or _closer(text[k]):
                    view[i, 5] += 1
            else:
                k += 1
        if length:
            first = text[0]
            view[i, 6] = first.isupper() or _opener(first) or (first.isalpha() and not first.islower())
            k = length - 1
            while k >= 0 and _closer(text[k]):
                k -= 1
            view[i, 7] = k >= 0 and _mark(text[k])
        k = 0
        while k < length:  # the key: runs of letters, joined
            if text[k].isalpha():
                start = k
                while k < length and text[k].isalpha():
                    k += 1
                letters.append(text[start:k])
            else:
                k += 1
        keys.append("".join(letters).lower())
    return out, keys


def state_scores(int[:, :] values, list tables, double[:] bias):
    """``crf.Weights.viterbi``'s per-block label scores: the bias plus, for every
    (offset, columns, flat weights, first rows) table, the weights of the values seen."""
    cdef Py_ssize_t n = values.shape[0], m = bias.shape[0], i, j, k, src, row
    out = np.empty((n, m), dtype=np.float64)
    cdef double[:, :] s = out
    cdef Py_ssize_t[:] cols
    cdef Py_ssize_t[:] first
    cdef double[:, :] flat
    cdef Py_ssize_t offset
    for i in range(n):
        for k in range(m):
            s[i, k] = bias[k]
    for table in tables:
        offset = table[0]
        cols = table[1]
        flat = table[2]
        first = table[3]
        for i in range(n):
            src = i + offset
            if src < 0 or src >= n:
                continue
            for j in range(cols.shape[0]):
                row = first[j] + values[src, cols[j]]
                for k in range(m):
                    s[i, k] += flat[row, k]
    return out
