# cython: language_level=3, boundscheck=False, wraparound=False
"""Compiled twin of the learned extractor's element walk (:class:`detourage.learned.features._Tree`).

The Python walk asks lxml for a proxy of every ancestor (``getparent()``), and reads the
tag and the class/id/role/itemprop attributes of each through the proxy.  This walk reads
libxml2's ``xmlNode`` structs directly (parent, name, properties), as ``_csegment`` does,
and builds the same arrays: the elements on the containers' ancestor chains in first-met
order, each one's parent, first and last paragraph, and region bits.  Tag and attribute
rules come from :mod:`detourage.learned.features` (passed in); ``tests/test_learned.py``
checks both walks give identical arrays.  The class/id/role/itemprop words are matched by
:class:`Vocabulary` on the attribute values' bytes, without a Python string per element
(a regular expression per new class string cost a page of unseen classes a fifth of a
millisecond).

It also holds the twins of two word passes of the features: stop words per paragraph
(:func:`stop_counts`) and the title overlap (:func:`title_overlap`).  They never build a
Python string per word: a word is its 64-bit FNV-1a hash over code points, looked up in
a :class:`WordSet` of the same hashes (two different words sharing a hash is a 2⁻⁶⁴-scale
event; the tests compare the results with the Python passes on odd text and an article).
"""

import numpy as np

from cpython.unicode cimport PyUnicode_DecodeUTF8

cdef extern from "Python.h":
    Py_ssize_t PyUnicode_GET_LENGTH(object)
    int PyUnicode_KIND(object)
    void* PyUnicode_DATA(object)
    Py_UCS4 PyUnicode_READ(int, void*, Py_ssize_t) nogil
    bint Py_UNICODE_ISSPACE(Py_UCS4) nogil
    bint Py_UNICODE_ISALNUM(Py_UCS4) nogil
    bint Py_UNICODE_ISDECIMAL(Py_UCS4) nogil
    Py_UCS4 Py_UNICODE_TOLOWER(Py_UCS4) nogil
    bint PyUnicode_IS_ASCII(object)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    void PyUnicode_WRITE(int kind, void* data, Py_ssize_t index, Py_UCS4 value) nogil
from libc.math cimport fmin, log1p
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memchr, strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

cetree.import_lxml__etree()

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil

cdef const char* _ATTRS[4]
_ATTRS[0] = "class"
_ATTRS[1] = "id"
_ATTRS[2] = "role"
_ATTRS[3] = "itemprop"


cdef inline str _utf8(const char* s):
    return PyUnicode_DecodeUTF8(s, strlen(s), NULL)


cdef inline bint _is_lxml_element(xmlNode* c_node) noexcept:
    """lxml's ``_isElement``: what ``getparent()`` returns (else None)."""
    return (c_node.type == tree.XML_ELEMENT_NODE or c_node.type == tree.XML_COMMENT_NODE
            or c_node.type == tree.XML_ENTITY_REF_NODE or c_node.type == tree.XML_PI_NODE)


cdef inline xmlNode* _parent(xmlNode* c_node) noexcept:
    cdef xmlNode* up = c_node.parent
    if up is NULL or not _is_lxml_element(up):
        return NULL
    return up


cdef inline xmlAttr* _plain_attr(xmlNode* c_node, const char* name) noexcept:
    """The attribute ``name`` without namespace (what ``el.get(name)`` reads), or NULL."""
    cdef xmlAttr* attr = c_node.properties
    while attr is not NULL:
        # the first letters compared first: most attributes differ there, without a call
        if attr.ns is NULL and attr.name[0] == name[0] and strcmp(<const char*> attr.name, name) == 0:
            return attr
        attr = attr.next
    return NULL


cdef struct PtrMap:
    # open addressing on pointer values (0: an empty slot); the walk's element index and
    # tag cache without a Python int per lookup
    size_t* keys
    long long* values
    int shift  # 64 - log2(capacity)
    Py_ssize_t count


cdef int _map_init(PtrMap* m, int bits) except -1:
    m.keys = <size_t*> calloc(<size_t> 1 << bits, sizeof(size_t))
    m.values = <long long*> malloc((<size_t> 1 << bits) * sizeof(long long))
    if m.keys is NULL or m.values is NULL:
        _map_free(m)
        raise MemoryError()
    m.shift = 64 - bits
    m.count = 0
    return 0


cdef void _map_free(PtrMap* m) noexcept:
    free(m.keys)
    free(m.values)
    m.keys = NULL
    m.values = NULL


cdef inline size_t _slot(const PtrMap* m, size_t key) noexcept nogil:
    """The slot holding ``key``, or the empty one where it would go (Fibonacci hashing)."""
    cdef size_t mask = (<size_t> 1 << (64 - m.shift)) - 1
    cdef size_t i = (<unsigned long long> key * 11400714819323198485ULL) >> m.shift
    while m.keys[i] != 0 and m.keys[i] != key:
        i = (i + 1) & mask
    return i


cdef inline bint _map_get(const PtrMap* m, size_t key, long long* value) noexcept nogil:
    cdef size_t i = _slot(m, key)
    if m.keys[i] == 0:
        return False
    value[0] = m.values[i]
    return True


cdef int _map_put(PtrMap* m, size_t key, long long value) except -1:
    """Set ``key`` (not 0) to ``value``, doubling the table past half full."""
    cdef PtrMap bigger
    cdef size_t i, capacity
    if 2 * (m.count + 1) > (<Py_ssize_t> 1 << (64 - m.shift)):
        capacity = <size_t> 1 << (64 - m.shift)
        _map_init(&bigger, 65 - m.shift)
        for i in range(capacity):
            if m.keys[i] != 0:
                _map_put(&bigger, m.keys[i], m.values[i])
        _map_free(m)
        m[0] = bigger
    i = _slot(m, key)
    if m.keys[i] == 0:
        m.keys[i] = key
        m.count += 1
    m.values[i] = value
    return 0


cdef long long _bits(cetree._Document doc, xmlNode* c_node, dict tag_bits, Vocabulary vocabulary,
                     PtrMap* names) except? -1:
    """The region bits of an element's tag and vocabulary (``features._own_bits``)."""
    cdef long long bits = 0, got
    cdef xmlAttr* attr
    cdef int k
    cdef size_t key
    if c_node.type == tree.XML_ELEMENT_NODE:
        # libxml2 keeps one copy of each tag name per document (its dictionary), but a
        # namespaced one is cached apart: the key of "{ns}name" is the name's address + 1
        key = <size_t> c_node.name + (c_node.ns is not NULL)
        if not _map_get(names, key, &got):
            if c_node.ns is NULL:
                got = tag_bits.get(_utf8(<const char*> c_node.name), 0)
            else:  # a namespaced tag is "{ns}name": lxml's tag, never a tag group
                got = tag_bits.get(cetree.elementFactory(doc, c_node).tag, 0)
            _map_put(names, key, got)
        bits = got
    if c_node.properties is NULL:
        return bits
    # the values one by one: " " joins them in the Python walk, and no word spans a space
    for k in range(4):
        attr = _plain_attr(c_node, _ATTRS[k])
        if attr is NULL or attr.children is NULL:
            continue
        if attr.children.next is NULL and attr.children.type == tree.XML_TEXT_NODE:
            bits |= vocabulary.bytes_bits(<const unsigned char*> attr.children.content,
                                          strlen(<const char*> attr.children.content))
        else:
            bits |= vocabulary(cetree.elementFactory(doc, c_node).get(_utf8(_ATTRS[k])) or "")
    return bits


cdef xmlNode* _container(cetree._Document doc, xmlNode* c_node, frozenset block_level):
    """The nearest block-level element at or above a node (``features.tree.container``'s walk)."""
    cdef xmlNode* start = c_node
    while c_node is not NULL:
        if c_node.type == tree.XML_ELEMENT_NODE and c_node.ns is NULL \
                and _utf8(<const char*> c_node.name) in block_level:
            return c_node
        c_node = _parent(c_node)
    return start


def walk(list firsts, dict tag_bits, Vocabulary vocabulary not None, frozenset block_level):
    """(parent, first, last, container, bits) of the elements above the paragraphs' first
    blocks, as ``features._Tree`` builds them; index ``len(elements)`` is the virtual root."""
    cdef Py_ssize_t n = len(firsts), p, size = 0, capacity = 256, i, root
    cdef long long found = 0
    cdef PtrMap index, names
    cdef xmlNode** nodes = <xmlNode**> malloc(capacity * sizeof(xmlNode*))
    cdef xmlNode* c_node
    cdef xmlNode* container
    cdef cetree._Element el
    cdef cetree._Document doc = None
    cdef long long[:] first_v, parent_v, last_v, cont_v, bits_v
    if nodes is NULL:
        raise MemoryError()
    index.keys = names.keys = NULL
    index.values = names.values = NULL
    containers = np.empty(n, dtype=np.intp)
    firsts_met = []
    try:
        _map_init(&index, 9)
        _map_init(&names, 6)
        for p in range(n):
            block = firsts[p]
            el = block.node
            doc = el._doc
            c_node = el._c_node
            path = block.path
            if not (path and path[len(path) - 1] in block_level):
                c_node = _container(doc, c_node, block_level)
            container = c_node
            while c_node is not NULL and not _map_get(&index, <size_t> c_node, &found):
                if size == capacity:
                    capacity *= 2
                    nodes = <xmlNode**> realloc(nodes, capacity * sizeof(xmlNode*))
                    if nodes is NULL:
                        raise MemoryError()
                _map_put(&index, <size_t> c_node, size)
                nodes[size] = c_node
                firsts_met.append(p)
                size += 1
                c_node = _parent(c_node)
            _map_get(&index, <size_t> container, &found)
            containers[p] = found
        root = size
        parent = np.empty(size + 1, dtype=np.int64)  # np.full's Python wrapper costs more than the fill
        parent.fill(root)
        bits = np.zeros(size + 1, dtype=np.int64)
        parent_v = parent
        bits_v = bits
        for i in range(size):
            c_node = _parent(nodes[i])
            if c_node is not NULL and _map_get(&index, <size_t> c_node, &found):
                parent_v[i] = found
            bits_v[i] = _bits(doc, nodes[i], tag_bits, vocabulary, &names)
    finally:
        free(nodes)
        _map_free(&index)
        _map_free(&names)
    first = np.array(firsts_met + [0], dtype=np.int64)
    container_arr = containers.astype(np.int64)
    last = np.empty(size + 1, dtype=np.int64)
    last.fill(-1)
    last_v = last
    cont_v = container_arr
    last_v[root] = n - 1
    for p in range(n - 1, -1, -1):
        i = cont_v[p]
        while last_v[i] < 0:
            last_v[i] = p
            i = parent_v[i]
    return parent, first, last, container_arr, bits


def distances(const long long[::1] container, const long long[::1] parent, const long long[::1] bits,
              int groups):
    """(dist, depth): levels from each paragraph's container up to the nearest element of
    every group (99: none), and the container's depth (``features._Tree.distances``)."""
    cdef Py_ssize_t n = container.shape[0], p
    cdef long long root = parent.shape[0] - 1, node, found, fresh
    cdef int level, j
    dist_arr = np.empty((n, groups))
    dist_arr.fill(99.0)
    depth_arr = np.zeros(n)
    cdef double[:, ::1] dist = dist_arr
    cdef double[::1] depth = depth_arr
    with nogil:
        for p in range(n):
            node = container[p]
            found = 0
            level = 0
            while node != root:
                fresh = bits[node] & ~found
                while fresh:
                    j = __builtin_ctzll(fresh)
                    if j < groups:
                        dist[p, j] = level
                    fresh &= fresh - 1
                found |= bits[node]
                level += 1
                node = parent[node]
            depth[p] = level
    return dist_arr, depth_arr


def char_stats(list texts, const unsigned char[::1] classes, const unsigned char[::1] cjk_stop,
               const unsigned char[::1] ending):
    """Per paragraph: character-class counts (paragraphs, 10), word starts, CJK stop
    characters, whether it ends like a sentence and starts upper-case
    (``features.char_stats_numpy``'s twin, one pass over each string's code points)."""
    cdef Py_ssize_t n = len(texts), p, i, length
    cdef Py_ssize_t top = classes.shape[0] - 1
    cdef Py_UCS4 c
    cdef int kind, k
    cdef void* data
    cdef bint prev_space
    cdef long long words
    counts_arr = np.zeros((n, 10))
    words_arr = np.zeros(n, dtype=np.int64)
    stop_arr = np.zeros(n)
    ends_arr = np.zeros(n)
    upper_arr = np.zeros(n)
    cdef double[:, ::1] counts = counts_arr
    cdef long long[::1] word_v = words_arr
    cdef double[::1] stop_v = stop_arr, ends_v = ends_arr, upper_v = upper_arr
    cdef str text
    for p in range(n):
        text = texts[p]
        length = PyUnicode_GET_LENGTH(text)
        if length == 0:
            continue
        kind = PyUnicode_KIND(text)
        data = PyUnicode_DATA(text)
        prev_space = True
        words = 0
        for i in range(length):
            c = PyUnicode_READ(kind, data, i)
            if c > top:
                c = top
            k = classes[c]
            counts[p, k] += 1
            if k == 4:
                prev_space = True
            else:
                if prev_space:
                    words += 1
                prev_space = False
            stop_v[p] += cjk_stop[c]
        word_v[p] = words
        c = PyUnicode_READ(kind, data, length - 1)
        ends_v[p] = ending[c if c <= top else top]
        c = PyUnicode_READ(kind, data, 0)
        upper_v[p] = classes[c if c <= top else top] == 2
    return counts_arr, words_arr, stop_arr, ends_arr, upper_arr


# ------------------------------------------------------------------ vocabulary


cdef inline unsigned char _ascii_lower(unsigned char c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint _letter(unsigned char c) noexcept nogil:
    return 97 <= c <= 122


cdef inline int _pair(unsigned int c, unsigned int d) noexcept nogil:
    """The bucket of a word (or token) starting with the letter ``c`` then ``d``."""
    return (c - 97) * 27 + (d - 97 if 97 <= d <= 122 else 26)


cdef class Vocabulary:
    """The class/id/role/itemprop words of the region groups, matched in C.

    The twin of ``features._vocabulary_bits``: a word matches at a token start (a letter
    ``a``–``z`` after anything else) of the lower-cased text, and a bounded word only
    where no letter follows it.  Built from ``(word, bit, bounded)`` entries; the words
    are ASCII.  Text is matched as UTF-8 bytes: a character outside ASCII is bytes of
    0x80 and above, no letter, as it is no ``[a-z]`` for the regular expression.  ASCII
    text is lower-cased here; other text goes through ``str.lower`` first, which may turn
    a character outside ASCII into an ASCII letter (the Kelvin sign into ``k``).
    """

    cdef bytes text
    cdef list entries
    cdef int start[27]  # entries of first letter c: start[c - 'a'] … start[c - 'a' + 1] - 1
    # when every word has two characters or more (``paired``): the entries of the first two
    # characters, at _pair(c, d), so that a token start tries the one or two words that
    # can match there instead of every word of its first letter
    cdef int start2[26 * 27 + 1]
    cdef bint paired
    cdef int[::1] offset, length
    cdef long long[::1] bit
    cdef unsigned char[::1] bounded

    def __init__(self, entries):
        entries = list(entries)
        self.paired = all(len(e[0]) >= 2 for e in entries)
        entries.sort(key=lambda e: (_pair(ord(e[0][0]), ord(e[0][1])), e[0]) if self.paired else e[0])
        for word, _, _ in entries:
            if not word or not word.isascii() or not all("a" <= c <= "z" or not c.isalpha() for c in word) \
                    or not "a" <= word[0] <= "z":
                raise ValueError(f"a vocabulary word is lower-case ASCII starting with a letter: {word!r}")
        self.entries = list(entries)
        self.text = "".join(e[0] for e in entries).encode("ascii")
        n = len(entries)
        self.offset = np.cumsum([0] + [len(e[0]) for e in entries])[:n].astype(np.intc)
        self.length = np.array([len(e[0]) for e in entries], dtype=np.intc)
        self.bit = np.array([e[1] for e in entries], dtype=np.int64)
        self.bounded = np.array([bool(e[2]) for e in entries], dtype=np.uint8)
        cdef int c, at = 0
        for c in range(27):
            while at < n and ord(entries[at][0][0]) - 97 < c:
                at += 1
            self.start[c] = at
        at = 0
        for c in range(26 * 27 + 1):
            while self.paired and at < n and _pair(ord(entries[at][0][0]), ord(entries[at][0][1])) < c:
                at += 1
            self.start2[c] = at

    def __reduce__(self):
        return Vocabulary, (self.entries,)

    def __call__(self, str words):
        """The bits of a class/id/role/itemprop string."""
        data = words.encode("ascii") if words.isascii() else words.lower().encode("utf-8", "surrogatepass")
        return self._match(<const unsigned char*> data, len(data))

    cdef long long bytes_bits(self, const unsigned char* s, Py_ssize_t size) except -1:
        """The bits of ``size`` bytes of UTF-8 text."""
        cdef Py_ssize_t i
        for i in range(size):
            if s[i] >= 0x80:  # str.lower first: it may make ASCII letters
                lowered = PyUnicode_DecodeUTF8(<const char*> s, size, NULL).lower().encode("utf-8", "surrogatepass")
                return self._match(<const unsigned char*> lowered, len(lowered))
        return self._match(s, size)

    cdef long long _match(self, const unsigned char* s, Py_ssize_t size) noexcept:
        """The bits of ``size`` bytes, ASCII lower-cased here, other bytes no letter."""
        cdef Py_ssize_t i, k
        cdef int e, length, first, last
        cdef long long bits = 0
        cdef unsigned char c
        cdef bint after_letter = False
        cdef const unsigned char* word
        for i in range(size):
            c = _ascii_lower(s[i])
            if not _letter(c):
                after_letter = False
                continue
            if not after_letter:
                if self.paired:
                    if i + 1 < size:
                        first = self.start2[_pair(c, _ascii_lower(s[i + 1]))]
                        last = self.start2[_pair(c, _ascii_lower(s[i + 1])) + 1]
                    else:
                        first = last = 0  # no word of two characters fits
                else:
                    first, last = self.start[c - 97], self.start[c - 96]
                for e in range(first, last):
                    length = self.length[e]
                    if i + length > size:
                        continue
                    word = <const unsigned char*> self.text + self.offset[e]
                    for k in range(1, length):
                        if _ascii_lower(s[i + k]) != word[k]:
                            break
                    else:
                        if not self.bounded[e] or i + length == size or not _letter(_ascii_lower(s[i + length])):
                            bits |= self.bit[e]
            after_letter = True
        return bits


# ------------------------------------------------------------------ hashed words

cdef extern from *:
    """
    #define DETOURAGE_FNV_OFFSET 14695981039346656037ULL
    #define DETOURAGE_FNV_PRIME 1099511628211ULL
    """
    unsigned long long FNV_OFFSET "DETOURAGE_FNV_OFFSET"
    unsigned long long FNV_PRIME "DETOURAGE_FNV_PRIME"


cdef inline unsigned long long _step(unsigned long long h, Py_UCS4 c) noexcept nogil:
    return (h ^ <unsigned long long> c) * FNV_PRIME


cdef inline unsigned long long _nonzero(unsigned long long h) noexcept nogil:
    return h if h else 1  # 0 marks an empty slot


cdef inline bint _is_decimal(Py_UCS4 c) noexcept nogil:
    """``str.isdecimal`` of one character: ASCII by a comparison, the rest by CPython's
    table (``Py_UNICODE_ISDECIMAL`` is a function call for every character)."""
    if c < 128:
        return 48 <= c <= 57
    return Py_UNICODE_ISDECIMAL(c)


cdef inline bint _is_word(Py_UCS4 c) noexcept nogil:
    """Whether one character is sre's ``\w`` (``str.isalnum`` or ``_``): ASCII by
    comparisons, the rest by CPython's tables (``Py_UNICODE_ISALNUM`` is up to four
    function calls)."""
    if c < 128:
        return (48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122) or c == 0x5F
    return Py_UNICODE_ISALNUM(c)


cpdef unsigned long long word_hash(str word):
    """The hash :class:`WordSet` keys a word by (FNV-1a over its code points, never 0)."""
    cdef unsigned long long h = FNV_OFFSET
    cdef Py_ssize_t i, length = PyUnicode_GET_LENGTH(word)
    cdef int kind = PyUnicode_KIND(word)
    cdef void* data = PyUnicode_DATA(word)
    for i in range(length):
        h = _step(h, PyUnicode_READ(kind, data, i))
    return _nonzero(h)


cdef class WordSet:
    """A fixed set of words as an open-addressing table of their hashes."""

    cdef unsigned long long[::1] slots
    cdef unsigned long long mask
    cdef readonly Py_ssize_t size

    def __init__(self, words):
        hashes = {word_hash(w) for w in words}
        cdef Py_ssize_t capacity = 16
        while capacity < 2 * len(hashes) + 1:
            capacity *= 2
        self.slots = np.zeros(capacity, dtype=np.uint64)
        self.mask = capacity - 1
        self.size = len(hashes)
        cdef unsigned long long h
        for h in hashes:
            self._add(h)

    cdef void _add(self, unsigned long long h) noexcept:
        cdef unsigned long long i = h & self.mask
        while self.slots[i] != 0:
            i = (i + 1) & self.mask
        self.slots[i] = h

    cdef inline bint has(self, unsigned long long h) noexcept nogil:
        cdef unsigned long long i = h & self.mask
        while self.slots[i] != 0:
            if self.slots[i] == h:
                return True
            i = (i + 1) & self.mask
        return False


def stop_counts(str lowered, Py_ssize_t n, WordSet stop):
    """Stop words of each of the ``n`` paragraphs of ``lowered`` (joined by ``\x1f``):
    the words of ``str.split`` found in ``stop`` (the twin of the features' split-and-look-up)."""
    out_arr = np.zeros(n)
    cdef double[::1] out = out_arr
    cdef Py_ssize_t i, length = PyUnicode_GET_LENGTH(lowered), p = 0
    cdef int kind = PyUnicode_KIND(lowered)
    cdef void* data = PyUnicode_DATA(lowered)
    cdef Py_UCS4 c
    cdef unsigned long long h = FNV_OFFSET
    cdef bint in_word = False
    with nogil:
        for i in range(length + 1):
            c = PyUnicode_READ(kind, data, i) if i < length else 0x20
            if Py_UNICODE_ISSPACE(c):
                if in_word:
                    if stop.has(_nonzero(h)) and p < n:
                        out[p] += 1
                    in_word = False
                if c == 0x1F:
                    p += 1
            else:
                if not in_word:
                    h = FNV_OFFSET
                    in_word = True
                h = _step(h, c)
    return out_arr


def marks(str joined, Py_ssize_t n):
    """Per paragraph of ``joined`` (``n`` of them, joined by ``\x1f``): 1.0 where a year
    stands (a run of exactly four decimal digits starting ``19`` or ``20``: the features'
    ``(?<!\d)(?:19|20)\d\d(?!\d)``), and 1.0 where ``©`` or ``opyright`` occurs; the
    twin of the features' regular-expression and ``str.find`` passes."""
    year_arr = np.zeros(n)
    mark_arr = np.zeros(n)
    cdef double[::1] year = year_arr, mark = mark_arr
    cdef Py_ssize_t i, length = PyUnicode_GET_LENGTH(joined), p = 0, run = 0, k
    cdef int kind = PyUnicode_KIND(joined)
    cdef void* data = PyUnicode_DATA(joined)
    cdef Py_UCS4 c, first = 0, second = 0
    cdef const char* word = "opyright"
    with nogil:
        for i in range(length + 1):
            c = PyUnicode_READ(kind, data, i) if i < length else 0x1F
            if _is_decimal(c):
                if run == 0:
                    first = c
                elif run == 1:
                    second = c
                run += 1
                continue
            if run == 4 and p < n and ((first == 0x31 and second == 0x39) or (first == 0x32 and second == 0x30)):
                year[p] = 1.0
            run = 0
            if c == 0x1F:
                p += 1
            elif c == 0xA9:
                if p < n:
                    mark[p] = 1.0
            elif c == 0x6F and i + 8 <= length:
                k = 1
                while k < 8 and PyUnicode_READ(kind, data, i + k) == <Py_UCS4> word[k]:
                    k += 1
                if k == 8 and p < n:
                    mark[p] = 1.0
    return year_arr, mark_arr


cdef inline Py_ssize_t _next_separator(int kind, void* data, Py_ssize_t i, Py_ssize_t length) noexcept nogil:
    """Where the next ``\x1f`` at or after ``i`` stands (``length``: none): ``memchr`` on
    one-byte text, a plain scan on the rest."""
    cdef const unsigned char* found
    if kind == 1:
        found = <const unsigned char*> memchr(<const unsigned char*> data + i, 0x1F, length - i)
        return length if found is NULL else found - <const unsigned char*> data
    while i < length and PyUnicode_READ(kind, data, i) != 0x1F:
        i += 1
    return i


def title_overlap(str lowered, const double[::1] chars, WordSet title, double longest):
    """Jaccard overlap of the ``\w+`` word set of each paragraph of ``lowered`` (joined
    by ``\x1f``) shorter than ``longest`` characters (``chars``) with ``title``'s; 0 for
    the others (the twin of ``features._title_overlap``)."""
    cdef Py_ssize_t n = chars.shape[0]
    out_arr = np.zeros(n)
    cdef double[::1] out = out_arr
    cdef Py_ssize_t i, length = PyUnicode_GET_LENGTH(lowered), p = 0, distinct = 0, inter = 0, k
    cdef int kind = PyUnicode_KIND(lowered)
    cdef void* data = PyUnicode_DATA(lowered)
    cdef Py_UCS4 c
    cdef unsigned long long h = FNV_OFFSET, slot
    cdef bint in_word = False, counted
    # the distinct words of one paragraph: a table reset after each (a short paragraph
    # holds fewer than 300 characters, so fewer than 150 words)
    cdef Py_ssize_t capacity = 1024
    cdef unsigned long long cap_mask = capacity - 1
    table_arr = np.zeros(capacity, dtype=np.uint64)
    used_arr = np.zeros(capacity, dtype=np.int64)
    cdef unsigned long long[::1] table = table_arr
    cdef long long[::1] used = used_arr
    if title.size == 0:
        return out_arr
    with nogil:
        counted = p < n and chars[p] < longest
        i = -1
        while i < length:
            i += 1
            c = PyUnicode_READ(kind, data, i) if i < length else 0x1F
            if not counted and c != 0x1F:  # a long paragraph: on to its end
                i = _next_separator(kind, data, i, length) - 1
                continue
            if _is_word(c):  # sre's \w
                if counted:
                    if not in_word:
                        h = FNV_OFFSET
                        in_word = True
                    h = _step(h, c)
                continue
            if in_word:
                in_word = False
                h = _nonzero(h)
                slot = h & cap_mask
                while table[slot] != 0 and table[slot] != h:
                    slot = (slot + 1) & cap_mask
                if table[slot] == 0 and distinct < capacity // 2:
                    table[slot] = h
                    used[distinct] = slot
                    distinct += 1
                    if title.has(h):
                        inter += 1
            if c == 0x1F:
                if counted and inter:
                    out[p] = <double> inter / <double> (distinct + title.size - inter)
                for k in range(distinct):
                    table[used[k]] = 0
                distinct = inter = 0
                p += 1
                counted = p < n and chars[p] < longest
    return out_arr


# ------------------------------------------------------------------ regions

def region_columns(const double[::1] chars, const double[::1] link_chars, const double[::1] words,
                   const double[::1] stop, const double[::1] ends, const double[::1] commas,
                   const long long[::1] first, const long long[::1] last, const long long[::1] parent,
                   const long long[::1] container, Py_ssize_t levels, int[:, :, ::1] spans):
    """The region columns of the features (``features.regions_numpy`` is the twin), float64
    (paragraphs, 8 * levels + 3): for the container and its ancestors, level by level, the
    subtree's log characters, link density, log paragraphs, share of the page, log mean
    paragraph length, Readability-style score against the page's best, stop words and
    sentence ends per word; then whether the paragraph lies in the best-scoring element,
    that element's share of the page and its link density.  Per paragraph: ``chars``,
    ``link_chars``, ``words``, ``stop`` words, sentence ``ends`` and ``commas``; per
    element (the walk's arrays, the last one a virtual root): its ``first`` and ``last``
    paragraph and ``parent``; per paragraph its ``container``.  ``spans`` (int32 (levels,
    2, paragraphs)) receives each level's element's first and one-past-last paragraph
    (``_Tree.spans``).  The same sums in the same
    order as the twin (sequential cumulative sums; the scores spread level by level in
    paragraph order), so the same floats up to the mathematical library's last bit."""
    cdef Py_ssize_t n = chars.shape[0], m = parent.shape[0], i, e, lv, j, top = 0, lo, hi
    cdef double total = 0.0, best, sub_paras, weight, readable, words_e
    cdef double[4] spread
    spread[0] = 1.0
    spread[1] = 0.5
    spread[2] = 1.0 / 6
    spread[3] = 1.0 / 9
    cs_arr = np.zeros((n + 1, 5))  # running sums of chars, link chars, words, stop words, ends
    cdef double[:, ::1] cs = cs_arr
    element_arr = np.zeros((m, 8))
    cdef double[:, ::1] element = element_arr
    score_arr = np.zeros(m)
    cdef double[::1] score = score_arr
    sub_arr = np.zeros((m, 2))  # characters and link density of each element's subtree
    cdef double[:, ::1] sub = sub_arr
    out_arr = np.zeros((n, 8 * levels + 3))
    cdef double[:, ::1] out = out_arr
    with nogil:
        for i in range(n):
            total += chars[i]
            cs[i + 1, 0] = cs[i, 0] + chars[i]
            cs[i + 1, 1] = cs[i, 1] + link_chars[i]
            cs[i + 1, 2] = cs[i, 2] + words[i]
            cs[i + 1, 3] = cs[i, 3] + stop[i]
            cs[i + 1, 4] = cs[i, 4] + ends[i]
        if total < 1.0:
            total = 1.0
        for e in range(m):
            lo = first[e]
            hi = last[e] + 1
            sub[e, 0] = cs[hi, 0] - cs[lo, 0]
            sub[e, 1] = fmin((cs[hi, 1] - cs[lo, 1]) / (sub[e, 0] if sub[e, 0] > 1.0 else 1.0), 1.0)
        # the Readability score, spread to the ancestors one level after the other
        for lv in range(1, levels if levels < 5 else 5):
            weight = spread[lv - 1]
            for i in range(n):
                readable = (1.0 + commas[i] + fmin(chars[i] / 100, 3.0)) if chars[i] >= 25 else 0.0
                e = container[i]
                for j in range(lv):
                    e = parent[e]
                score[e] += readable * weight
        for e in range(m):
            score[e] *= 1.0 - sub[e, 1]
        score[m - 1] = 0.0  # the virtual root is no candidate
        for e in range(m):
            if score[e] > score[top]:
                top = e
        best = score[top] if score[top] > 1e-9 else 1e-9
        for e in range(m):
            lo = first[e]
            hi = last[e] + 1
            sub_paras = <double> (hi - lo)
            words_e = cs[hi, 2] - cs[lo, 2]
            element[e, 0] = log1p(sub[e, 0])
            element[e, 1] = sub[e, 1]
            element[e, 2] = log1p(sub_paras)
            element[e, 3] = sub[e, 0] / total
            element[e, 4] = log1p(sub[e, 0] / (sub_paras if sub_paras > 1.0 else 1.0))
            element[e, 5] = score[e] / best
            element[e, 6] = (cs[hi, 3] - cs[lo, 3]) / (words_e if words_e > 1.0 else 1.0)
            element[e, 7] = (cs[hi, 4] - cs[lo, 4]) / (words_e if words_e > 1.0 else 1.0)
        for i in range(n):
            e = container[i]
            for lv in range(levels):
                for j in range(8):
                    out[i, 8 * lv + j] = element[e, j]
                spans[lv, 0, i] = <int> first[e]
                spans[lv, 1, i] = <int> (last[e] + 1)
                e = parent[e]
            out[i, 8 * levels] = 1.0 if first[top] <= i <= last[top] else 0.0
            out[i, 8 * levels + 1] = sub[top, 0] / total
            out[i, 8 * levels + 2] = sub[top, 1]
    return out_arr


def neighbour_columns(const double[::1] log_chars, const double[::1] link_density, const double[::1] stop_ratio,
                      const double[::1] heading, const double[::1] chars, Py_ssize_t window):
    """The context columns of the features (``features.neighbours_numpy`` is the twin),
    float64 (paragraphs, 20): for the paragraphs one and two before, then one and two
    after, their log characters, link density, stop-word ratio and heading flag (-1 past
    the page's ends); the mean link density and log characters over ``window`` paragraphs
    either side; the position in the page and the share of its characters before."""
    cdef Py_ssize_t n = chars.shape[0], i, k, j, at, lo, hi
    cdef double total = 0.0, before = 0.0
    cdef int[4] offsets
    offsets[0] = -1
    offsets[1] = -2
    offsets[2] = 1
    offsets[3] = 2
    cs_arr = np.zeros((n + 1, 2))
    cdef double[:, ::1] cs = cs_arr
    out_arr = np.empty((n, 20))
    cdef double[:, ::1] out = out_arr
    with nogil:
        for i in range(n):
            total += chars[i]
            cs[i + 1, 0] = cs[i, 0] + link_density[i]
            cs[i + 1, 1] = cs[i, 1] + log_chars[i]
        if total < 1.0:
            total = 1.0
        for i in range(n):
            for k in range(4):
                at = i + offsets[k]
                j = 4 * k
                if 0 <= at < n:
                    out[i, j] = log_chars[at]
                    out[i, j + 1] = link_density[at]
                    out[i, j + 2] = stop_ratio[at]
                    out[i, j + 3] = 1.0 if heading[at] > 0 else 0.0
                else:
                    out[i, j] = out[i, j + 1] = out[i, j + 2] = out[i, j + 3] = -1.0
            lo = i - window if i > window else 0
            hi = i + window + 1 if i + window + 1 < n else n
            out[i, 16] = (cs[hi, 0] - cs[lo, 0]) / <double> (hi - lo)
            out[i, 17] = (cs[hi, 1] - cs[lo, 1]) / <double> (hi - lo)
            out[i, 18] = <double> i / <double> (n - 1 if n > 1 else 1)
            out[i, 19] = before / total
            before += chars[i]
    return out_arr


# ------------------------------------------------------------- second-stage context

def context_columns(const double[::1] q, const int[:, :, ::1] spans, const double[::1] w,
                    const int[::1] signature, float[:, ::1] out, Py_ssize_t start, double kept_at,
                    double mean, double w_sum, const double[::1] log1p):
    """The columns of ``context.compute`` after its page columns, from ``start`` on:
    per level the char-weighted mean, the paragraph mean and the kept share of the first
    stage's probabilities ``q`` over the ancestor's paragraph range, the neighbours ±1
    and ±2, the windows ±3 and ±10, and the mean and kept share over the paragraphs of the
    same structure (``w``: characters + 1).  The same sums in the same order as the numpy
    twin (sequential cumulative sums, bincounts in paragraph order), so the same floats.

    Then the page's columns before ``start`` (``context._page``'s): ``q``, the page's
    char-weighted ``mean`` (numpy's pairwise sums, given), its best guess, the kept share
    of the page (over ``w_sum``, numpy's ``w.sum()``), whether a paragraph lies within the
    kept span, the log1p of its distance to the nearest kept paragraph (``log1p``: numpy's
    values for 0…n, given, so that the same function gives them) and the kept share
    before and after it."""
    cdef Py_ssize_t n = q.shape[0], levels = spans.shape[0], i, lv, c, k, lo, hi, span
    cdef double kept, s0, s1, s2, s3
    cs_arr = np.zeros((n + 1, 4))
    cdef double[:, ::1] cs = cs_arr
    cdef int top = 0
    for i in range(n):
        if signature[i] > top:
            top = signature[i]
    sums_arr = np.zeros((top + 1 if n else 0, 3))
    cdef double[:, ::1] sums = sums_arr
    near_arr = np.empty(n, dtype=np.int64)
    cdef long long[::1] near = near_arr
    cdef int[4] offsets
    offsets[0] = -1
    offsets[1] = -2
    offsets[2] = 1
    offsets[3] = 2
    cdef int[2] widths
    widths[0] = 3
    widths[1] = 10
    with nogil:
        for i in range(n):
            kept = 1.0 if q[i] >= kept_at else 0.0
            cs[i + 1, 0] = cs[i, 0] + q[i] * w[i]
            cs[i + 1, 1] = cs[i, 1] + w[i]
            cs[i + 1, 2] = cs[i, 2] + q[i]
            cs[i + 1, 3] = cs[i, 3] + kept * w[i]
            sums[signature[i], 0] += w[i]
            sums[signature[i], 1] += q[i] * w[i]
            sums[signature[i], 2] += kept * w[i]
        for i in range(n):
            c = start
            for lv in range(levels):
                lo = spans[lv, 0, i]
                hi = spans[lv, 1, i]
                s0 = cs[hi, 0] - cs[lo, 0]
                s1 = cs[hi, 1] - cs[lo, 1]
                s2 = cs[hi, 2] - cs[lo, 2]
                s3 = cs[hi, 3] - cs[lo, 3]
                span = hi - lo if hi - lo > 1 else 1
                out[i, c] = <float> (s0 / s1)
                out[i, c + 1] = <float> (s2 / <double> span)
                out[i, c + 2] = <float> (s3 / s1)
                c += 3
            for k in range(4):
                lo = i + offsets[k]
                out[i, c + k] = <float> (q[lo] if 0 <= lo < n else -1.0)
            c += 4
            for k in range(2):
                lo = i - widths[k] if i >= widths[k] else 0
                hi = i + widths[k] + 1 if i + widths[k] + 1 < n else n
                out[i, c + k] = <float> ((cs[hi, 0] - cs[lo, 0]) / (cs[hi, 1] - cs[lo, 1]))
            c += 2
            out[i, c] = <float> (sums[signature[i], 1] / sums[signature[i], 0])
            out[i, c + 1] = <float> (sums[signature[i], 2] / sums[signature[i], 0])
        _page_columns(q, cs, out, mean, w_sum, log1p, kept_at, near)


cdef void _page_columns(const double[::1] q, const double[:, ::1] cs, float[:, ::1] out, double mean,
                        double w_sum, const double[::1] log1p, double kept_at, long long[::1] near) noexcept nogil:
    """``context._page`` (see ``context_columns``); ``cs[:, 3]``: the running sums of the
    kept paragraphs' weights; ``near``: scratch, the distance to the nearest kept
    paragraph before or at each."""
    cdef Py_ssize_t n = q.shape[0], i, first = -1, last = -1, previous = -1, following = -1
    cdef double best = q[0] if n else 0.0, total = cs[n, 3]
    for i in range(n):
        if q[i] > best:
            best = q[i]
        if q[i] >= kept_at:
            if first < 0:
                first = i
            last = i
            previous = i
        near[i] = i - previous if previous >= 0 else -1
    for i in range(n - 1, -1, -1):
        if q[i] >= kept_at:
            following = i
        out[i, 0] = <float> q[i]
        out[i, 1] = <float> mean
        out[i, 2] = <float> best
        out[i, 3] = <float> (total / w_sum)
        if first < 0:
            out[i, 4] = 0.0
            out[i, 5] = 99.0
            out[i, 6] = 0.0
            out[i, 7] = 0.0
            continue
        out[i, 4] = 1.0 if first <= i <= last else 0.0
        out[i, 6] = <float> (cs[i, 3] / total)
        out[i, 7] = <float> ((total - cs[i + 1, 3]) / total)
        if following < 0:
            out[i, 5] = <float> log1p[near[i]]
        elif near[i] < 0 or following - i < near[i]:
            out[i, 5] = <float> log1p[following - i]
        else:
            out[i, 5] = <float> log1p[near[i]]


# ---------------------------------------------------------------------------- lower case
#
# ``str.lower`` of a text that is not ASCII looks each character's full case mapping up,
# in a buffer of three code points a character, then packs the result: the largest
# single cost of the features' Python side on a Cyrillic, Greek or Chinese page.  Below
# U+10000 every character lower-cases to one character, its simple mapping, but two:
# U+0130 (İ, to "i" and a combining dot) and U+03A3 (Σ, final or not by its context),
# for which the text goes to ``str.lower``.  ``tests/test_learned.py`` holds ``lower`` to
# ``str.lower`` for every character of the plane, alone and between letters.

cdef unsigned short _lower16[65536]


cdef void _fill_lower() noexcept:
    cdef Py_UCS4 c, low
    for c in range(65536):
        low = Py_UNICODE_TOLOWER(c)
        _lower16[c] = <unsigned short> (low if low < 65536 else c)


_fill_lower()


def lower(str text not None) -> str:
    """``text.lower()``: a text of characters below U+10000 is mapped by one table, in
    two passes (the result's widest character, then the characters), the rest by
    ``str.lower``."""
    cdef Py_ssize_t n = PyUnicode_GET_LENGTH(text), i
    cdef int kind = PyUnicode_KIND(text)
    if PyUnicode_IS_ASCII(text) or kind == 4:
        return text.lower()
    cdef void* data = PyUnicode_DATA(text)
    cdef Py_UCS4 c, widest = 0
    for i in range(n):
        c = PyUnicode_READ(kind, data, i)
        if c == 0x130 or c == 0x3A3:
            return text.lower()
        if _lower16[c] > widest:
            widest = _lower16[c]
    out = PyUnicode_New(n, widest)
    cdef int out_kind = PyUnicode_KIND(out)
    cdef void* out_data = PyUnicode_DATA(out)
    for i in range(n):
        PyUnicode_WRITE(out_kind, out_data, i, _lower16[PyUnicode_READ(kind, data, i)])
    return out
