# cython: language_level=3
"""Compiled twin of :func:`detourage.segment._segment`: the same blocks, from libxml2's nodes.

The pure-Python loop pays for an lxml proxy and attribute reads on every element.  This
walk reads libxml2's ``xmlNode`` structs directly (type, name, children, next, parent,
content, properties) and asks lxml for a proxy only for the elements that hold a block.
It calls no libxml2 function (libxml2 is linked inside lxml, not against us): only lxml's
public C API (``elementFactory``) and struct fields, so lxml's headers are all it needs.

It mirrors ``iterwalk(root, events=("start", "end"))`` exactly: elements and entity
references are visited; comments and processing instructions are passed over without an
event (so their tail text is not read, as in the Python loop); ``.text`` and ``.tail``
are lxml's: the run of consecutive text/CDATA nodes, XInclude markers skipped.  Every
rule (what is invisible, hidden, void, block-level) comes from :mod:`detourage.segment`;
``tests/test_csegment.py`` checks both give identical blocks.
"""

from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.list cimport PyList_AsTuple
from cpython.object cimport PyObject
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport (PyUnicode_1BYTE_KIND, PyUnicode_DATA, PyUnicode_DecodeUTF8, PyUnicode_GET_LENGTH,
                              PyUnicode_KIND, PyUnicode_READ, PyUnicode_READ_CHAR, Py_UNICODE_ISSPACE)
from libc.string cimport memcmp, strchr, strcmp, strlen, strncmp, strstr

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from .errors import LimitExceeded
from .formulas import MARKS
from .model import Block
from .segment import (PANEL_ROLES, apart as _apart, panel_class as _panel_class, panel_item_class as _panel_item_class, PAUSE_BLOCKS, _screen_reader_only as _is_screen_reader_only, _CLOSING, _EMOTICON, _NO_LINE_END, _HIDDEN_STYLE, _INVISIBLE_CHARS, _LINE_CLASS, AD_HOSTS, BLOCK_LEVEL,
                      DECORATIVE_ALT_WORDS, DECORATIVE_WORDS, ICON_PIXELS, INVISIBLE, LAZY_SOURCES,
                      PLACEHOLDER_TYPES, PLACEHOLDER_WORDS, VOID, _captioned, _named, _noscript_source,
                      _picture_source, clean_text, cleaned, count_line_end, image_of, line_break, lines,
                      math_script, noscript_image, tex_alt)

import gc
import unicodedata

cetree.import_lxml__etree()

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    unsigned char* PyUnicode_1BYTE_DATA(object o)
    # borrowed references, compared by address only
    PyObject* _list_item "PyList_GET_ITEM" (object o, Py_ssize_t i)
    PyObject* _tuple_item "PyTuple_GET_ITEM" (object o, Py_ssize_t i)
    Py_ssize_t _list_size "PyList_GET_SIZE" (object o)
    Py_ssize_t _tuple_size "PyTuple_GET_SIZE" (object o)

# ---------------------------------------------------------------------------- blocks
#
# A page makes a block per text run, and the dataclass's ``__init__`` (a Python frame,
# ten attribute stores) was the walk's largest cost of Python code.  ``_block`` makes the
# same object as ``Block(...)``: the type's own allocation, then each field stored in its
# slot, at the offset the slot's member descriptor gives.  Checked at import: the fields
# are these ten, in this order, each a plain slot, and nothing runs at construction but
# the dataclass's generated ``__init__`` (no ``__post_init__``, no ``__new__``).

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    ctypedef struct PyTypeObject:
        pass
    object PyType_GenericAlloc(PyTypeObject* kind, Py_ssize_t items)

cdef tuple _BLOCK_FIELDS = ("id", "text", "path", "crossed", "link_chars", "node", "space_before", "paragraph",
                            "image", "decorative")
cdef Py_ssize_t _block_offsets[10]


cdef void _read_block_slots() except *:
    """The offset of each field's slot; an error (not an assertion, which ``python -O``
    drops) when ``Block`` is not the shape ``_block`` writes into."""
    import dataclasses
    descriptors = [Block.__dict__.get(name) for name in _BLOCK_FIELDS]
    if (tuple(f.name for f in dataclasses.fields(Block)) != _BLOCK_FIELDS or Block.__slots__ != _BLOCK_FIELDS
            or Block.__new__ is not object.__new__ or hasattr(Block, "__post_init__")
            or any(type(d).__name__ != "member_descriptor" for d in descriptors)):
        raise ImportError("detourage.model.Block changed: _csegment._block must follow its fields")
    for k, descriptor in enumerate(descriptors):
        _block_offsets[k] = (<PyMemberDescrObject*> descriptor).d_member.offset


_read_block_slots()


cdef inline void _store(object block, int k, object value) noexcept:
    """Put ``value`` in the ``k``-th field of a block just allocated (its slot is empty)."""
    Py_INCREF(value)
    (<PyObject**> ((<char*> <PyObject*> block) + _block_offsets[k]))[0] = <PyObject*> value


cdef object _block(Py_ssize_t id, str text, tuple path, tuple crossed, Py_ssize_t link_chars, object node,
                   bint space_before, Py_ssize_t paragraph, object image, bint decorative):
    """``Block(id, text, …)``, without the call of its ``__init__``."""
    block = PyType_GenericAlloc(<PyTypeObject*> Block, 0)
    _store(block, 0, id)
    _store(block, 1, text)
    _store(block, 2, path)
    _store(block, 3, crossed)
    _store(block, 4, link_chars)
    _store(block, 5, node)
    _store(block, 6, space_before)
    _store(block, 7, paragraph)
    _store(block, 8, image)
    _store(block, 9, decorative)
    return block


cdef object _search_hidden = _HIDDEN_STYLE.search
cdef frozenset _PANEL_ROLES = PANEL_ROLES
cdef object _search_line_class = _LINE_CLASS.search
cdef object _is_normalized = unicodedata.is_normalized


cdef class _Tag:
    """What the walk needs to know about one tag name, computed once per name."""
    cdef str name
    cdef str closing
    cdef bint invisible, void, block, is_a, is_pre, is_img, is_br, is_noscript, is_script
    cdef bint is_mark  # a formula's element (formulas.MARKS): a block inside one shows a formula


cdef _Tag _new_tag(str name):
    cdef _Tag info = _Tag.__new__(_Tag)
    info.name = name
    info.closing = _CLOSING.get(name) or "/" + name
    info.invisible = name in INVISIBLE
    info.void = name in VOID
    info.block = name in BLOCK_LEVEL
    info.is_a = name == "a"
    info.is_pre = name == "pre"
    info.is_img = name == "img"
    info.is_noscript = name == "noscript"
    info.is_script = name == "script"
    info.is_br = name == "br"
    info.is_mark = name in MARKS
    return info


cdef inline str _utf8(const char* s):
    return PyUnicode_DecodeUTF8(s, strlen(s), NULL)


cdef inline bint _is_text(xmlNode* c_node) noexcept:
    return c_node.type == tree.XML_TEXT_NODE or c_node.type == tree.XML_CDATA_SECTION_NODE


cdef inline xmlNode* _text_or_skip(xmlNode* c_node) noexcept:
    """lxml's ``_textNodeOrSkip``: the node if it is text, XInclude markers skipped."""
    while c_node is not NULL:
        if _is_text(c_node):
            return c_node
        if c_node.type == tree.XML_XINCLUDE_START or c_node.type == tree.XML_XINCLUDE_END:
            c_node = c_node.next
        else:
            return NULL
    return NULL


cdef object _collect_text(xmlNode* c_node):
    """lxml's ``.text``/``.tail``: the consecutive text nodes from ``c_node``; None when empty."""
    cdef xmlNode* first = _text_or_skip(c_node)
    cdef xmlNode* cur = first
    cdef const char* c_text = NULL
    cdef int count = 0
    cdef bytes joined
    while cur is not NULL:
        if cur.content[0] != 0:
            c_text = <const char*> cur.content
        count += 1
        cur = _text_or_skip(cur.next)
    if c_text is NULL:
        return None  # lxml gives None or "": both mean "no text" to the walk
    if count == 1:
        return _utf8(c_text)
    joined = b""
    cur = first
    while cur is not NULL:
        joined += <bytes> (<const char*> cur.content)
        cur = _text_or_skip(cur.next)
    return joined.decode("utf-8")


cdef inline bint _visited(xmlNode* c_node) noexcept:
    """Nodes that get start/end events in ``iterwalk``: elements and entity references."""
    return c_node.type == tree.XML_ELEMENT_NODE or c_node.type == tree.XML_ENTITY_REF_NODE


cdef inline bint _is_lxml_element(xmlNode* c_node) noexcept:
    """lxml's ``_isElement``: what can be a proxy and a parent."""
    return (c_node.type == tree.XML_ELEMENT_NODE or c_node.type == tree.XML_COMMENT_NODE
            or c_node.type == tree.XML_ENTITY_REF_NODE or c_node.type == tree.XML_PI_NODE)


cdef inline xmlNode* _first_visited(xmlNode* c_node) noexcept:
    while c_node is not NULL and not _visited(c_node):
        c_node = c_node.next
    return c_node


cdef inline xmlAttr* _plain_attr(xmlNode* c_node, const char* name) noexcept:
    """The attribute ``name`` without namespace (what ``el.get(name)`` reads), or NULL."""
    cdef xmlAttr* attr = c_node.properties
    while attr is not NULL:
        # the first letters compared first: most attributes differ there, without a call
        if attr.ns is NULL and attr.name[0] == name[0] and strcmp(<const char*> attr.name, name) == 0:
            return attr
        attr = attr.next
    return NULL


cdef bint _may_be_math_script(xmlNode* c_node) noexcept:
    """Whether a ``<script>``'s ``type`` may name MathJax 2's TeX (``math/tex…``, white
    space first, any case): the only scripts ``math_script`` reads, found here without
    making the element's Python object for every other script of the page."""
    cdef xmlAttr* attr = _plain_attr(c_node, b"type")
    cdef const char* value
    if attr is NULL or attr.children is NULL:
        return False
    if attr.children.next is not NULL or not _is_text(attr.children):
        return True  # an entity or several nodes: let the Python test decide
    value = <const char*> attr.children.content
    cdef const char* word = b"math/tex"
    cdef Py_ssize_t i
    while value[0] in b" \t\n\r\f\v":
        value += 1
    for i in range(8):  # ASCII, any case ("\0" ends the value first: no match)
        if (value[i] | 0x20 if b"A" <= value[i] <= b"Z" else value[i]) != word[i]:
            return False
    return True


cdef object _attr_value(cetree._Document doc, xmlNode* c_node, const char* name):
    """``el.get(name)``: str or None; anything but one text child is left to lxml."""
    cdef xmlAttr* attr = _plain_attr(c_node, name)
    if attr is NULL:
        return None
    if attr.children is NULL:
        return ""
    if attr.children.next is NULL and _is_text(attr.children):
        return _utf8(<const char*> attr.children.content)
    return cetree.elementFactory(doc, c_node).get(_utf8(name))


cdef dict _attributes(cetree._Document doc, xmlNode* c_node):
    """``dict(el.items())``, read from the attribute list (names as lxml gives them,
    ``{uri}name`` for a namespaced one; a value of more than one text node from lxml)."""
    cdef xmlAttr* attr = c_node.properties
    cdef dict out = {}
    while attr is not NULL:
        if attr.ns is not NULL and attr.ns.href is not NULL:
            name = "{%s}%s" % (_utf8(<const char*> attr.ns.href), _utf8(<const char*> attr.name))
        else:
            name = _utf8(<const char*> attr.name)
        if attr.children is NULL:
            out[name] = ""
        elif attr.children.next is NULL and _is_text(attr.children):
            out[name] = _utf8(<const char*> attr.children.content)
        else:
            out[name] = cetree.elementFactory(doc, c_node).get(name)
        attr = attr.next
    return out


cdef bint _hidden(cetree._Document doc, xmlNode* c_node) except -1:
    """``is_hidden``, read from the attribute list in one pass (the role only of an
    element that hides)."""
    cdef xmlAttr* attr = c_node.properties
    cdef xmlAttr* style = NULL
    cdef xmlAttr* classes = NULL
    cdef bint hidden = False
    cdef const char* name
    while attr is not NULL:
        if attr.ns is NULL:
            name = <const char*> attr.name  # its first letter first: most attributes are none of the three
            if name[0] == b"h":
                if strcmp(name, b"hidden") == 0:
                    hidden = True
            elif name[0] == b"s":
                if style is NULL and strcmp(name, b"style") == 0:
                    style = attr
            elif name[0] == b"c":
                if classes is NULL and strcmp(name, b"class") == 0:
                    classes = attr
        attr = attr.next
    cdef bint markup = hidden or _styled_hidden(doc, c_node, style)
    if not markup and not _screen_reader_only(doc, c_node, classes):
        return False
    if _attr_value(doc, c_node, b"role") in _PANEL_ROLES or _panel_class(_attr_value(doc, c_node, b"class")):
        return False
    return not (markup and c_node.parent is not NULL and c_node.parent.type == tree.XML_ELEMENT_NODE
                and _panel_item_class(_attr_value(doc, c_node.parent, b"class")))


cdef bint _styled_hidden(cetree._Document doc, xmlNode* c_node, xmlAttr* style) except -1:
    """Whether the inline ``style`` (NULL: none) hides the element."""
    if style is NULL:
        return False
    if (style.children is not NULL and style.children.next is NULL and _is_text(style.children)
            and not _may_hide(<const unsigned char*> style.children.content)):
        return False
    value = _attr_value(doc, c_node, b"style")
    return bool(value) and _search_hidden(value) is not None


cdef bint _screen_reader_only(cetree._Document doc, xmlNode* c_node, xmlAttr* classes) except -1:
    """Whether the ``class`` attribute (NULL: none) names text for screen readers only
    (``segment.SCREEN_READER_CLASSES``); a value holding none of their distinctive parts
    is answered without making its Python string."""
    cdef const char* value
    if classes is NULL or classes.children is NULL:
        return False
    if classes.children.next is NULL and _is_text(classes.children) and \
            not _holds_screen_reader_part(<const char*> classes.children.content):
        return False
    return _is_screen_reader_only(_attr_value(doc, c_node, b"class"))


cdef bint _holds_screen_reader_part(const char* value) noexcept:
    """Whether ``value`` holds, in any case (the Python test lower-cases the value), "sr",
    "reader", "isually", "invisible", "assistive", "a11y", "offscreen", "accessible" or
    "ada" (a part of every ``segment.SCREEN_READER_CLASSES`` name and of
    ``segment._SCREEN_READER_PARTS``): one pass over the value, each word compared only
    where its first two letters are (nine ``strstr`` cost a class value nine passes, on
    every element that has one)."""
    cdef const char* p = value
    cdef char c, d
    while p[0] != 0:
        c = p[0] | 0x20
        d = p[1] | 0x20  # p[1] is the NUL ending the value at worst: no word matches it
        if c == b"s":
            if d == b"r":
                return True
        elif c == b"r":  # each word's second letter before a call: "i", "r" and "a" are common
            if d == b"e" and _starts_lower(<const unsigned char*> p, strlen(p), b"reader"):
                return True
        elif c == b"i":
            if (d == b"s" and _starts_lower(<const unsigned char*> p, strlen(p), b"isually")) or (d == b"n" and _starts_lower(<const unsigned char*> p, strlen(p), b"invisible")):
                return True
        elif c == b"a":
            if ((d == b"s" and _starts_lower(<const unsigned char*> p, strlen(p), b"assistive")) or (d == b"1" and _starts_lower(<const unsigned char*> p, strlen(p), b"a11y"))
                    or (d == b"d" and (p[2] | 0x20) == b"a") or (d == b"c" and _starts_lower(<const unsigned char*> p, strlen(p), b"accessible"))):
                return True
        elif c == b"o":
            if d == b"f" and _starts_lower(<const unsigned char*> p, strlen(p), b"offscreen"):
                return True
        p += 1
    return False


cdef bint _may_hide(const unsigned char* s) noexcept:
    """False when ``_HIDDEN_STYLE`` cannot match: ASCII text holding neither "none" nor
    "hidden" in any case (non-ASCII text may, as ``re.I`` matches "ı" to "i")."""
    cdef const unsigned char* p = s
    while p[0] != 0:
        if p[0] >= 0x80:
            return True
        p += 1
    return _contains_lower(s, b"none") or _contains_lower(s, b"hidden")


cdef bint _contains_lower(const unsigned char* s, const char* word) noexcept:
    """Whether ASCII ``s`` holds the lowercase ``word``, ignoring ASCII case."""
    cdef Py_ssize_t i
    while s[0] != 0:
        i = 0
        while word[i] != 0 and s[i] != 0 and (s[i] | 0x20) == <unsigned char> word[i]:
            i += 1
        if word[i] == 0:
            return True
        s += 1
    return False


cdef class _Recent:
    """``tuple(items)``, made once per page (``shared.setdefault``), the last four made
    looked up first by the identity of their items: most blocks repeat a recent path or
    crossing (two in three on the shared pages), and then cost no tuple, no hash and no
    lookup (what sharing cost; eight looked up cost as much as they saved)."""
    cdef dict shared
    cdef list last  # the last four tuples made (the empty tuple until then)
    cdef int next

    def __cinit__(self, dict shared):
        self.shared = shared
        self.last = [()] * 4
        self.next = 0

    cdef tuple tuple(self, list items):
        cdef Py_ssize_t i
        for i in range(4):
            if _same(items, <object> _list_item(self.last, i)):
                return <tuple> _list_item(self.last, i)
        made = PyList_AsTuple(items)
        made = self.shared.setdefault(made, made)
        self.last[self.next] = made
        self.next = (self.next + 1) & 3
        return <tuple> made


cdef bint _same(list items, tuple made) noexcept:
    """Whether ``made`` holds the very objects of ``items``, in order (then it is equal)."""
    cdef Py_ssize_t i, n = _list_size(items)
    if n != _tuple_size(made):
        return False
    for i in range(n):
        if _list_item(items, i) != _tuple_item(made, i):
            return False
    return True


cdef class _Walk:
    """The state of one segmentation: the Python loop's local variables."""
    cdef cetree._Document doc
    cdef list blocks, crossed, stack, paths
    cdef dict shared  # equal path and crossed tuples made once (segment._Out.shared)
    cdef _Recent recent_paths, recent_crossed
    cdef Py_ssize_t max_blocks
    cdef int links, pre, paragraph
    # in a <pre>: ends of line met since its last text (segment.ends_code_line), the depth
    # of the last one counted, and whether the last line is ended already
    cdef int line_ends, line_depth
    cdef bint line_start
    cdef bint breaks  # a block-level tag or <br> is among ``crossed``
    # the open elements that mark a formula (``is_mark``), and whether a block showed one
    # (``segment.segmented``: a block whose path holds a mark, or an image with TeX alt text)
    cdef int marks
    cdef bint formulas
    # name pointer → _Tag (open addressing; names are interned by libxml2, and a name
    # seen at two addresses merely takes two slots); ``held`` keeps the values alive
    cdef const void* tag_keys[256]
    cdef void* tag_values[256]
    cdef list held

    cdef _Tag tag(self, xmlNode* c_node):
        cdef unsigned long long h
        cdef int probe
        cdef _Tag info
        if c_node.ns is not NULL:
            return _tag(c_node)
        h = ((<unsigned long long> <size_t> c_node.name) * 0x9E3779B97F4A7C15ULL) >> 56
        for probe in range(16):
            if self.tag_keys[h] == <const void*> c_node.name:
                return <_Tag> self.tag_values[h]
            if self.tag_keys[h] is NULL:
                info = _tag(c_node)
                self.tag_keys[h] = <const void*> c_node.name
                self.tag_values[h] = <void*> info
                self.held.append(info)
                return info
            h = (h + 1) & 255
        return _tag(c_node)

    cdef inline void cross(self, str tag, bint block):
        self.crossed.append(tag)
        if block:
            self.breaks = True

    cdef object node(self, xmlNode* c_node):
        if c_node is NULL or not _is_lxml_element(c_node):
            return None
        return cetree.elementFactory(self.doc, c_node)

    cdef void add(self, bint space, str text, tuple path, object node, object image=None,
                  bint decorative=False) except *:
        """``_Out.add``: append a block; the caller resets its pending space."""
        cdef Py_ssize_t count = len(self.blocks)
        if count >= self.max_blocks:
            raise LimitExceeded("blocks", count + 1, self.max_blocks)
        if count == PAUSE_BLOCKS:  # a big page: see segment.collector_paused
            gc.disable()
        if self.breaks and count:
            self.paragraph += 1
        elif not space and count and image is None and _apart(self.blocks[count - 1], text, path):
            space = True
        seen = self.recent_crossed.tuple(self.crossed)
        self.blocks.append(_block(count, text, path, seen, len(text) if self.links else 0, node,
                                  space or self.breaks or not count, self.paragraph, image, decorative))
        self.crossed.clear()
        self.breaks = False
        if not self.formulas and (self.marks or image is not None and _tex_alt(text)):
            self.formulas = True

    cdef tuple path(self):
        path = self.paths[-1] if self.paths else ()
        if path is None:
            path = self.paths[-1] = self.recent_paths.tuple(self.stack)
        return <tuple> path

    cdef bint pre_text(self, str text, object node) except -1:
        """``_pre_text``: every line of a ``<pre>`` is a block, the newline a crossed ``br``."""
        cdef bint space = True
        cdef Py_ssize_t i
        path = self.path()
        for i, line in enumerate(lines(text)):
            if i:
                self.cross("br", True)
            words = line.split()
            if words:
                self.add(True, " ".join(words), path, node)
                space = False
        return space or text[-1].isspace()

    cdef int image(self, xmlNode* c_node, _Tag info, bint space) except -1:
        """An ``<img>`` with a source or alt text is a block of its own (``image_of``:
        the usual image is read here, in C, by ``_usual_image``): 0 when none, 1 for a
        block apart from its neighbours, 2 for a formula's TeX spaced as the page spaces
        the image (``tex_alt``)."""
        node = self.node(c_node)
        found = _usual_image(c_node, node)
        if found is _UNDECIDED:
            found = image_of(node, _attributes(self.doc, c_node))
        if found is None:
            return 0
        inline = _tex_alt(found[1])
        path = tuple(self.stack) + (info.name,)
        self.add(space or not inline, found[1], self.shared.setdefault(path, path), node, found[0], found[2])
        return 2 if inline else 1


    cdef void noscript(self, xmlNode* c_node) except *:
        """A ``<noscript>``'s image when it is the only form of the illustration
        (``noscript_image``), a block like ``image``'s."""
        shown = noscript_image(self.node(c_node))
        if shown is None:
            return
        path = tuple(self.stack) + ("img",)
        self.add(True, shown[1][1], self.shared.setdefault(path, path), shown[0], shown[1][0], False)


    cdef bint math_script(self, xmlNode* c_node, bint space) except -1:
        """The TeX of a MathJax 2 source script (``math_script``): a block of its own,
        spaced as the page spaces it; whether there was one."""
        node = self.node(c_node)
        tex = math_script(node) if node is not None else None
        if tex is None or not (tex := cleaned(tex)):
            return False
        path = tuple(self.stack) + ("script",)
        self.add(space, tex, self.shared.setdefault(path, path), node)
        self.formulas = True  # its path holds "script", one of the marks
        return True


cdef dict _names = {}  # tag name → _Tag, for every name seen so far


cdef _Tag _tag(xmlNode* c_node):
    """The _Tag of an element, by name (``_Walk.tag`` caches it by name pointer)."""
    cdef str name
    cdef _Tag info
    if c_node.ns is not NULL and c_node.ns.href is not NULL:  # lxml's "{uri}name"
        name = "{%s}%s" % (_utf8(<const char*> c_node.ns.href), _utf8(<const char*> c_node.name))
    else:
        name = _utf8(<const char*> c_node.name)
    info = <_Tag> _names.get(name)
    if info is None:
        info = _new_tag(name)
        if len(_names) < 10_000:  # pages with generated tag names must not grow it forever
            _names[name] = info
    return info


def segment(cetree._Element root not None, limits, list declared=None):  # noqa: C901 - one event loop, the twin of segment._segment, kept whole for speed
    """The blocks of ``root`` and whether one may show a formula, identical to
    ``detourage.segment._segment(root, limits)``; and, given a list ``declared``, the
    elements where the page may declare itself appended to it (:func:`declared_elements`'
    in the same order), found as the walk passes them rather than in a walk of their own.

    One loop over start and end events, like the Python one and for the same reason: it
    runs for every node of every page.  ``starting`` tells which event ``c_node`` is at;
    the walk moves by ``children``/``next``/``parent`` and never leaves ``root``.
    """
    cdef _Walk w = _Walk.__new__(_Walk)
    cdef xmlNode* top = root._c_node
    cdef xmlNode* c_node = top
    cdef xmlNode* nxt
    cdef _Tag info
    cdef Py_ssize_t max_depth = limits.max_depth, max_nodes = limits.max_nodes
    cdef Py_ssize_t nodes = 0
    cdef int shown  # what an <img> gave (_Walk.image)
    cdef bint pending_space = False, starting = True, skip, skipped = False, skip_space = True
    cdef xmlNode* text_from
    cdef xmlNode* first
    cdef xmlNode* holder
    w.doc = root._doc
    w.blocks, w.crossed, w.stack, w.paths = [], [], [], []
    w.shared = {}
    w.recent_paths, w.recent_crossed = _Recent(w.shared), _Recent(w.shared)
    w.max_blocks = limits.max_blocks
    w.links = w.pre = w.paragraph = w.line_ends = w.line_depth = 0
    w.breaks = w.line_start = False
    w.marks = 0
    w.formulas = False
    w.held = []
    while True:
        skip = False
        if starting:  # the start event of c_node
            if c_node.type != tree.XML_ELEMENT_NODE:  # an entity reference: only its tail is text
                text_from = NULL
            else:
                info = w.tag(c_node)
                if declared is not None and c_node.properties is not NULL and _declares(c_node):
                    declared.append(cetree.elementFactory(w.doc, c_node))
                if info.invisible or (c_node.properties is not NULL and _hidden(w.doc, c_node)):
                    skip = skipped = skip_space = True
                    text_from = NULL
                    if declared is not None and c_node.children is not NULL:
                        _declared_below(declared, w.doc, c_node)
                    if info.is_noscript:
                        w.noscript(c_node)
                    elif info.is_script and _may_be_math_script(c_node) \
                            and w.math_script(c_node, pending_space):
                        pending_space = skip_space = False
                else:
                    nodes += 1
                    if nodes > max_nodes:
                        raise LimitExceeded("nodes", nodes, max_nodes)
                    w.cross(info.name, info.block)
                    if info.void:
                        if info.is_img and (shown := w.image(c_node, info, pending_space)):
                            pending_space = shown == 1
                        elif info.is_br:
                            w.line_start = True
                        text_from = NULL
                    else:
                        w.stack.append(info.name)
                        w.paths.append(None)
                        w.marks += info.is_mark
                        if len(w.stack) > max_depth:
                            raise LimitExceeded("depth", len(w.stack), max_depth)
                        if info.is_a:
                            w.links += _plain_attr(c_node, b"href") is not NULL
                        elif info.is_pre:
                            w.pre += 1
                            w.line_start = True
                        text_from = c_node.children
            holder = c_node
        else:  # the end event of c_node
            if skipped:
                pending_space = skip_space
                skipped = False
            elif c_node.type == tree.XML_ELEMENT_NODE:
                info = w.tag(c_node)
                if not info.void:
                    w.paths.pop()
                    w.stack.pop()
                    w.marks -= info.is_mark
                    w.cross(info.closing, info.block)
                    if info.is_a:
                        w.links -= _plain_attr(c_node, b"href") is not NULL
                    elif info.is_pre:
                        w.pre -= 1
                        w.line_ends = 0
                    elif w.pre and _ends_code_line(w.doc, c_node, info):
                        w.line_ends, w.line_depth = count_line_end(w.line_ends, w.line_depth,
                                                                   w.line_start, len(w.stack))
            text_from = c_node.next
            holder = c_node.parent
        if text_from is not NULL:
            first = _text_or_skip(text_from)
            if first is NULL:
                pass
            elif first.content[0] != 0 and not w.pre and _text_or_skip(first.next) is NULL:
                pending_space = w_one_text(w, <const unsigned char*> first.content, holder,
                                           pending_space)
            else:
                text = _collect_text(first)
                if text is not None:
                    pending_space = w_text(w, <str> text, holder, pending_space)
        # the next event, in iterwalk's order
        if starting and not skip:
            # entity references are not entered: their children are the entity's declaration
            nxt = _first_visited(c_node.children) if c_node.type == tree.XML_ELEMENT_NODE else NULL
            if nxt is not NULL:
                c_node = nxt
                continue
            starting = False  # no child: c_node's end event comes next
            continue
        if starting:  # a skipped element: its end event is the very next one
            starting = False
            continue
        if c_node is top:
            break
        nxt = _first_visited(c_node.next)
        if nxt is not NULL:
            c_node = nxt
            starting = True
        else:
            c_node = c_node.parent
    return w.blocks, w.formulas


# ------------------------------------------------------------ where the page declares itself


cdef bint _declares(xmlNode* c_node) noexcept:
    """Whether an element with attributes may be one where the page declares itself: a
    ``<meta>`` whose ``property`` or ``name`` may be an ``og:`` key or a description, a
    ``<script>`` whose type may be JSON-LD, a ``<link>`` whose ``rel`` may be
    ``canonical``, or any element whose ``itemtype`` may name a schema.org type.  A
    prefilter: each test holds where the value does (ASCII case aside), and the reader
    (``features.page_hints``) applies its exact tests to what passes."""
    cdef const char* name
    if c_node.ns is not NULL or c_node.name is NULL:
        return False
    name = <const char*> c_node.name
    if strcmp(name, b"meta") == 0:
        if _attr_may_hold(c_node, b"property", b"og:", b"descr") or _attr_may_hold(c_node, b"name", b"og:", b"descr"):
            return True
    elif strcmp(name, b"script") == 0:
        if _attr_may_hold(c_node, b"type", b"ld+json", NULL):
            return True
    elif strcmp(name, b"link") == 0:
        if _attr_may_hold(c_node, b"rel", b"canonical", NULL):
            return True
    return _attr_may_hold(c_node, b"itemtype", b"schema.org", NULL)


cdef bint _attr_may_hold(xmlNode* c_node, const char* name, const char* needle, const char* other) noexcept:
    """Whether the attribute ``name`` may hold ``needle`` or ``other`` (``other`` may be
    NULL): True when it does, or when its value is not one plain text (entities)."""
    cdef xmlAttr* attr = _plain_attr(c_node, name)
    if attr is NULL or attr.children is NULL:
        return False
    if attr.children.next is not NULL or attr.children.type != tree.XML_TEXT_NODE or attr.children.content is NULL:
        return True
    return (_contains_lower(attr.children.content, needle)
            or (other is not NULL and _contains_lower(attr.children.content, other)))


cdef void _declared_below(list out, cetree._Document doc, xmlNode* top) except *:
    """Append the elements below ``top`` (not ``top`` itself) that :func:`_declares`, in
    document order: the walk skips what a reader does not see, the page's declarations
    are read there too (JSON-LD in a hidden box, a ``<noscript>``'s microdata)."""
    cdef xmlNode* node = top.children
    while node is not NULL:
        if node.type == tree.XML_ELEMENT_NODE:
            if node.properties is not NULL and _declares(node):
                out.append(cetree.elementFactory(doc, node))
            if node.children is not NULL:
                node = node.children
                continue
        while node.next is NULL:
            node = node.parent
            if node is NULL or node is top:
                return
        node = node.next


def declared_elements(cetree._Element root not None):
    """The elements of ``root`` (itself included) where the page may declare itself
    (:func:`_declares`), in document order: the walk of its own for a page whose
    segmentation did not collect them (``Page.declared`` is None)."""
    cdef cetree._Document doc = root._doc
    out = []
    if root._c_node.properties is not NULL and _declares(root._c_node):
        out.append(root)
    _declared_below(out, doc, root._c_node)
    return out


cdef bint w_text(_Walk w, str text, xmlNode* holder, bint pending_space, bint clean=False) except -1:
    """The text step at the end of the Python loop; returns the new pending-space state
    (``clean``: the caller's scan found nothing ``clean_text`` would change)."""
    if not clean and _needs_cleaning(text):
        text = clean_text(text)
        if not text:  # only invisible characters: no text, and no space either
            return pending_space
    if w.pre:
        if w.line_ends:
            text = line_break(text, w.line_ends)
            w.line_ends = 0
        w.line_start = text[-1] == "\n"
        return w.pre_text(text, w.node(holder))
    words = text.split()
    if not words:
        return True
    w.add(pending_space or text[0].isspace(), " ".join(words), w.path(), w.node(holder))
    return text[-1].isspace()


cdef inline bint _tex_alt(str alt) except -1:
    """``formulas.tex_alt``, called only for an alt text starting with "{" (as every
    formula's TeX does): most images' alt text is answered without a call."""
    return PyUnicode_GET_LENGTH(alt) > 0 and PyUnicode_READ_CHAR(alt, 0) == u"{" and tex_alt(alt)


cdef bint _ends_code_line(cetree._Document doc, xmlNode* c_node, _Tag info) except -1:
    """``segment.ends_code_line``, from the node's attribute list."""
    if info.block:
        return info.name not in _NO_LINE_END
    if c_node.properties is NULL:
        return False
    if _plain_attr(c_node, b"data-line") is not NULL:
        return True
    value = _attr_value(doc, c_node, b"class")
    return bool(value) and _search_line_class(value) is not None


# what ``_scan`` finds in a text's bytes
cdef enum:
    ASCII = 1       # no byte above 0x7f: ``str.split``'s whitespace is then ASCII only
    BLANK = 2       # nothing but whitespace
    COLLAPSED = 4   # no whitespace but single spaces between words: split + join changes nothing


cdef inline bint _ascii_space(unsigned char c) noexcept:
    """``str.isspace`` for an ASCII character (what ``str.split`` splits on)."""
    return (9 <= c <= 13) or (28 <= c <= 32)


cdef inline bint _ascii_control(unsigned char c) noexcept:
    """An ASCII character of ``segment.CONTROL_CHARS`` (a control that is not whitespace)."""
    return c < 9 or 14 <= c < 28 or c == 127


# what ``_scan`` makes of each byte, looked up in one step
cdef enum:
    WORD = 0    # an ASCII character of a word
    SPACE = 1   # ASCII whitespace (``_ascii_space``)
    STOP = 2    # not ASCII, or an ASCII control character (``_ascii_control``): the scan ends
cdef unsigned char _byte_kind[256]


cdef void _fill_byte_kinds() noexcept:
    cdef int c
    for c in range(256):
        _byte_kind[c] = STOP if c >= 0x80 or _ascii_control(c) else SPACE if _ascii_space(c) else WORD


_fill_byte_kinds()


cdef int _scan(const unsigned char* s) noexcept:
    cdef int flags = ASCII | BLANK | COLLAPSED
    cdef unsigned char c, kind
    cdef bint after_space = True  # a leading space is not collapsed either
    while s[0] != 0:
        c = s[0]
        kind = _byte_kind[c]
        if kind == STOP:  # not ASCII text, or text to clean
            return 0
        if kind == SPACE:
            if after_space or c != 32:
                flags &= ~COLLAPSED
            after_space = True
        else:
            flags &= ~BLANK
            after_space = False
        s += 1
    if after_space:
        flags &= ~COLLAPSED
    return flags


cdef bint w_one_text(_Walk w, const unsigned char* content, xmlNode* holder,
                     bint pending_space) except -1:
    """``w_text`` for one text node outside ``<pre>``, sparing the decode of blank text and
    the split and join of text that is already collapsed."""
    cdef int flags = _scan(content)
    if flags & BLANK:
        return True
    if flags & COLLAPSED:  # no leading or trailing whitespace
        w.add(pending_space, _utf8(<const char*> content), w.path(), w.node(holder))
        return False
    if flags & ASCII:  # ASCII without a control character (clean_text leaves it): w_text's
        # steps outside <pre>, the split and join made in one pass over the bytes
        w.add(pending_space or _byte_kind[content[0]] == SPACE, _collapsed(content), w.path(), w.node(holder))
        return _byte_kind[content[strlen(<const char*> content) - 1]] == SPACE
    return w_text(w, _utf8(<const char*> content), holder, pending_space)


cdef str _collapsed(const unsigned char* s):
    """``" ".join(text.split())`` of a text that ``_scan`` read as ASCII without a control
    character and not blank: its words, one space between two."""
    cdef Py_ssize_t n = 0, i
    cdef const unsigned char* p = s
    cdef bint word = False, gap = False
    while p[0] != 0:  # the length first
        if _byte_kind[p[0]] == SPACE:
            gap = word
        else:
            n += 1 + gap
            word, gap = True, False
        p += 1
    out = PyUnicode_New(n, 127)
    cdef unsigned char* d = PyUnicode_1BYTE_DATA(out)
    i, word, gap, p = 0, False, False, s
    while p[0] != 0:
        if _byte_kind[p[0]] == SPACE:
            gap = word
        else:
            if gap:
                d[i] = 32
                i += 1
            d[i] = p[0]
            i += 1
            word, gap = True, False
        p += 1
    return <str> out


# ---------------------------------------------------------------------------- text hygiene

#: ``segment._INVISIBLE_CHARS``, as code points
cdef Py_UCS4 _invisible[8]
cdef int _invisible_count = 0


cdef void _read_invisible() except *:
    global _invisible_count
    assert len(_INVISIBLE_CHARS) <= 8 and all(ord(char) < 0x10000 for char in _INVISIBLE_CHARS)  # see _wide_dirty
    for char in _INVISIBLE_CHARS:
        _invisible[_invisible_count] = ord(char)
        _invisible_count += 1


_read_invisible()


cdef str _clean(str text):
    """``clean_text(text)``, called only when it can change ``text``
    (:func:`_needs_cleaning`)."""
    return clean_text(text) if _needs_cleaning(text) else text


def needs_cleaning(str text) -> bool:
    """Whether the walk passes ``text`` through ``clean_text`` (:func:`_needs_cleaning`),
    for the tests: it must be exactly when ``clean_text`` changes ``text``, or a clean
    text pays for a pass that changes nothing."""
    return _needs_cleaning(text)


cdef bint _needs_cleaning(str text) except -1:
    """Whether ``clean_text`` can change ``text``: it holds an invisible character
    (``segment._INVISIBLE_CHARS``) or a control one (``segment.CONTROL_CHARS``: C0 and C1
    controls that are not whitespace, and DEL), or is not NFC.  One pass over the
    characters; below U+0300 every character is NFC, none combines and no two compose
    (``tests/test_csegment.py`` checks it over Unicode), so a text of Latin letters needs
    no NFC check, and most texts none of the work.  A text of zero-width joiners and
    spaces alone (``segment._JOINERS_ONLY``) needs it too: it becomes "" there."""
    cdef Py_ssize_t i, n = PyUnicode_GET_LENGTH(text)
    cdef unsigned int kind = PyUnicode_KIND(text)
    cdef void* data = PyUnicode_DATA(text)
    cdef const unsigned char* narrow
    cdef Py_UCS4 c
    cdef bint combining = False
    cdef bint joiner = False  # a U+200C or U+200D…
    cdef bint other = False  # …and a character that is neither one nor a space
    if kind == PyUnicode_1BYTE_KIND:
        narrow = <const unsigned char*> data
        for i in range(n):
            if _dirty[narrow[i]]:
                return True
        return False
    for i in range(n):
        c = PyUnicode_READ(kind, data, i)
        if c < 256:
            if _dirty[c]:
                return True
        elif c < 0x10000 and (_wide_dirty[<unsigned int> c >> 3] >> (<unsigned int> c & 7)) & 1:
            return True
        elif c >= 0x300:
            combining = True
        if c == 0x200c or c == 0x200d:
            joiner = True
        elif not other and not Py_UNICODE_ISSPACE(c):
            other = True
    if joiner and not other:
        return True
    return combining and not _is_normalized("NFC", text)


cdef inline bint _control(Py_UCS4 c) noexcept:
    """A character below U+00A0 of ``segment.CONTROL_CHARS``."""
    return c < 9 or 14 <= c < 28 or (127 <= c and c != 0x85)


cdef inline bint _invisible_char(Py_UCS4 c) noexcept:
    """A character of ``segment._INVISIBLE_CHARS``."""
    cdef int k
    for k in range(_invisible_count):
        if _invisible[k] == c:
            return True
    return False


#: the characters below U+0100 that ``clean_text`` changes (a control, an invisible one),
#: looked up in one step where a character of a wider text would be compared to each
cdef bint _dirty[256]


#: the same for the other characters of the Basic Multilingual Plane (the invisible ones
#: above U+00FF), one bit each: a text of Cyrillic or Chinese pays one lookup a character,
#: not a comparison with each invisible character
cdef unsigned char _wide_dirty[8192]


cdef void _fill_dirty() noexcept:
    cdef int c, k
    for c in range(256):
        _dirty[c] = (c < 0xa0 and _control(c)) or _invisible_char(c)  # _control reads below U+00A0
    for k in range(_invisible_count):
        c = _invisible[k]
        if 256 <= c < 0x10000:
            _wide_dirty[c >> 3] |= 1 << (c & 7)


_fill_dirty()


# ---------------------------------------------------------------------------- images
#
# ``segment.image_of`` decides every image; the usual one (its source in ``src``, or a
# placeholder there and no other attribute naming a source; no lazy loader's attribute;
# ASCII source, names and sizes) is decided here from the attribute list, with no dict of
# attributes and no Python call but the rare ones (a placeholder's ``<picture>`` and
# ``<noscript>``, a short alt text, a figure's caption).  Anything else is
# ``_UNDECIDED`` and goes to ``image_of``.

cdef object _UNDECIDED = object()
cdef tuple _LAZY_NAMES = tuple(name.encode() for name in LAZY_SOURCES)
cdef tuple _AD_HOSTS = tuple(host.encode() for host in AD_HOSTS)
cdef tuple _PLACEHOLDER_WORDS = tuple(word.encode() for word in PLACEHOLDER_WORDS)
cdef tuple _PLACEHOLDER_TYPES = tuple(kind.encode() for kind in PLACEHOLDER_TYPES)
cdef object _fullmatch_emoticon = _EMOTICON.fullmatch
cdef const unsigned char* _NO_VALUE = <const unsigned char*> b""


cdef struct _ImageAttrs:
    # the values ``image_of`` reads (NULL: no such attribute; "" for one without a value)
    const unsigned char* src
    const unsigned char* alt
    const unsigned char* width
    const unsigned char* height
    const unsigned char* klass
    const unsigned char* id
    bint sourced  # another attribute named like a source or a source set ("…src", "…srcset"…)


cdef object _usual_image(xmlNode* c_node, object node):
    """``image_of(node)`` for the usual image, or ``_UNDECIDED``."""
    cdef _ImageAttrs a
    cdef const unsigned char* src
    cdef Py_ssize_t start, end
    cdef int decorative
    if not _image_attrs(c_node, &a):
        return _UNDECIDED
    src = a.src if a.src is not NULL else _NO_VALUE
    end = strlen(<const char*> src)
    start = _strip(src, &end)
    src += start
    end -= start
    if not _ascii(src, end):
        return _UNDECIDED
    if end == 0 or _placeholder(src, end):
        # image_source's last resorts, after the attributes that may name a source
        if a.sourced or _picture_source(node) or _noscript_source(node):
            return _UNDECIDED
    source = PyUnicode_DecodeUTF8(<const char*> src, end, NULL)
    alt = _alt_text(a.alt)
    if end == 0:
        return ("", alt, False) if alt else None
    decorative = _decorative(node, &a, src, end, alt)
    if decorative < 0:
        return _UNDECIDED
    return source, alt, decorative == 1


cdef bint _image_attrs(xmlNode* c_node, _ImageAttrs* a) except -1:
    """Fill ``a``; False when ``image_of`` must read the attributes itself: a namespaced
    one, a value that is not one text node, a lazy loader's (``LAZY_SOURCES``, which
    come before ``src``), one of ours twice."""
    cdef xmlAttr* attr = c_node.properties
    cdef const char* name
    cdef const unsigned char* value
    cdef const unsigned char** slot
    a.src = a.alt = a.width = a.height = a.klass = a.id = NULL
    a.sourced = False
    while attr is not NULL:
        if attr.ns is not NULL:
            return False
        if attr.children is NULL:
            value = _NO_VALUE
        elif attr.children.next is NULL and _is_text(attr.children):
            value = attr.children.content
        else:
            return False
        name = <const char*> attr.name
        slot = NULL
        if _name_is(name, b"src"):
            slot = &a.src
        elif _name_is(name, b"alt"):
            slot = &a.alt
        elif _name_is(name, b"width"):
            slot = &a.width
        elif _name_is(name, b"height"):
            slot = &a.height
        elif _name_is(name, b"class"):
            slot = &a.klass
        elif _name_is(name, b"id"):
            slot = &a.id
        elif _lazy_name(name):
            return False
        else:
            a.sourced = a.sourced or _ends_with(name, b"src") or _ends_with(name, b"srcset") or _ends_with(
                name, b"original")
        if slot is not NULL:
            if slot[0] is not NULL:
                return False
            slot[0] = value
        attr = attr.next
    return True


cdef bint _lazy_name(const char* name) except -1:
    cdef Py_ssize_t i
    for i in range(len(_LAZY_NAMES)):
        if _name_is(name, PyBytes_AS_STRING(<bytes> _LAZY_NAMES[i])):
            return True
    return False


cdef inline bint _name_is(const char* name, const char* word) noexcept:
    """``name == word``, the first letters compared first (most names differ there)."""
    return name[0] == word[0] and strcmp(name, word) == 0


cdef bint _ends_with(const char* name, const char* end) noexcept:
    cdef size_t size = strlen(name), length = strlen(end)
    return size >= length and strcmp(name + size - length, end) == 0


cdef Py_ssize_t _strip(const unsigned char* s, Py_ssize_t* end) noexcept:
    """``str.strip`` of ASCII ``s[:end]``: the start, and ``end`` moved back."""
    cdef Py_ssize_t start = 0
    while start < end[0] and _ascii_space(s[start]):
        start += 1
    while end[0] > start and _ascii_space(s[end[0] - 1]):
        end[0] -= 1
    return start


cdef bint _ascii(const unsigned char* s, Py_ssize_t n) noexcept:
    cdef Py_ssize_t i
    for i in range(n):
        if s[i] >= 0x80:
            return False
    return True


cdef inline unsigned char _lower(unsigned char c) noexcept:
    return c | 0x20 if 65 <= c <= 90 else c


cdef bint _starts_lower(const unsigned char* s, Py_ssize_t n, const char* word) noexcept:
    """Whether ASCII ``s[:n]``, lowercased, starts with the lowercase ``word``."""
    cdef Py_ssize_t i = 0
    while word[i] != 0:
        if i >= n or _lower(s[i]) != <unsigned char> word[i]:
            return False
        i += 1
    return True


cdef inline bint _data_uri(const unsigned char* s, Py_ssize_t n) noexcept:
    """``url[:5].lower() == "data:"``."""
    return _starts_lower(s, n, b"data:")


cdef bint _placeholder(const unsigned char* s, Py_ssize_t n) except -1:
    """``segment.placeholder`` of an ASCII URL ``s[:n]``: a data URI, or a file name
    (after the last ``/``) of a placeholder's type (before ``?`` and ``#``) that matches
    ``_PLACEHOLDER_NAME``: one of ``PLACEHOLDER_WORDS`` before a type's extension that
    ends the name or comes before its ``?`` or ``#`` (a name holds no ``/``)."""
    cdef Py_ssize_t name = n, cut, i, last = -1
    if _data_uri(s, n):
        return True
    while name > 0 and s[name - 1] != 47:  # "/"
        name -= 1
    cut = n
    for i in range(name, n):
        if s[i] == 63 or s[i] == 35:  # "?" or "#"
            cut = i
            break
    if cut - name < 4 or not _typed(s + cut - 4):
        return False
    for i in range(n - 4, name - 1, -1):
        if (i + 4 == n or s[i + 4] == 63 or s[i + 4] == 35) and _typed(s + i):
            last = i
            break
    for i in range(len(_PLACEHOLDER_WORDS)):
        if _find_lower(s + name, last - name, <bytes> _PLACEHOLDER_WORDS[i]):
            return True
    return False


cdef bint _typed(const unsigned char* s) except -1:
    """Whether the 4 characters at ``s`` are one of ``PLACEHOLDER_TYPES``, in any case."""
    cdef Py_ssize_t i
    for i in range(len(_PLACEHOLDER_TYPES)):
        if _starts_lower(s, 4, PyBytes_AS_STRING(<bytes> _PLACEHOLDER_TYPES[i])):
            return True
    return False


cdef bint _find_lower(const unsigned char* s, Py_ssize_t n, bytes word) except -1:
    """Whether ASCII ``s[:n]`` holds the lowercase ``word`` in any case."""
    cdef const char* w = PyBytes_AS_STRING(word)
    cdef Py_ssize_t i, size = len(word)
    for i in range(n - size + 1):
        if _starts_lower(s + i, size, w):
            return True
    return False


cdef str _alt_text(const unsigned char* value):
    """``image_of``'s alt text: cleaned, whitespace collapsed."""
    cdef int flags
    if value is NULL or value[0] == 0:
        return ""
    flags = _scan(value)
    if flags & BLANK:
        return ""
    text = _utf8(<const char*> value)
    if flags & COLLAPSED:
        return text
    if not flags & ASCII:
        text = _clean(text)
    return " ".join(text.split())


cdef int _decorative(object node, _ImageAttrs* a, const unsigned char* src, Py_ssize_t n,
                     str alt) except -2:
    """``segment.decorative`` of an image whose source is ``src[:n]`` (ASCII, not
    empty): 1 or 0, or -1 when it must decide (a size, class or id not in ASCII, which
    Unicode digits, spaces or case could change)."""
    cdef int width, height, big, small, named
    cdef bytes lowered
    cdef unsigned char* lower
    cdef Py_ssize_t i, path
    if a.width is not NULL or a.height is not NULL:
        width, height = _pixels(a.width), _pixels(a.height)
        if width == -2 or height == -2:
            return -1
        if width >= 0 or height >= 0:
            big = width if width > height else height
            small = width if height < 0 or (0 <= width < height) else height
            if big <= ICON_PIXELS or small <= 1:
                return 1
    if (a.klass is not NULL and not _ascii(a.klass, strlen(<const char*> a.klass))
            or a.id is not NULL and not _ascii(a.id, strlen(<const char*> a.id))):
        return -1
    lowered = PyBytes_FromStringAndSize(NULL, n)  # a new object (with a source, one byte is shared)
    lower = <unsigned char*> PyBytes_AS_STRING(lowered)
    for i in range(n):
        lower[i] = _lower(src[i])
    if _data_uri(lower, n) or _advert(lower, n):
        return 1
    path = n  # a query's words are no names
    for i in range(n):
        if lower[i] == 63 or lower[i] == 35:  # "?" or "#"
            path = i
            break
    named = (_has_word(a.klass, &_DECORATIVE) or _has_word(a.id, &_DECORATIVE)
             or _has_word_n(lower, path, &_DECORATIVE)
             or (len(alt) <= 12 and _fullmatch_emoticon(alt) is not None) or _alt_named(alt))
    return named and not _captioned(node)


cdef int _pixels(const unsigned char* value) noexcept:
    """``segment._pixels``: the number; -1 for None; -2 for a value not in ASCII."""
    cdef Py_ssize_t i = 0, digits
    cdef int number = 0
    if value is NULL or value[0] == 0:
        return -1
    if not _ascii(value, strlen(<const char*> value)):
        return -2
    while _ascii_space(value[i]):
        i += 1
    digits = i
    while 48 <= value[i] <= 57:
        if i - digits == 6:
            return -1  # seven digits: ``\d{1,6}`` cannot end there
        number = number * 10 + (value[i] - 48)
        i += 1
    if i == digits:
        return -1
    if value[i] == 112 and value[i + 1] == 120:  # "px"
        i += 2
    while _ascii_space(value[i]):
        i += 1
    return number if value[i] == 0 else -1


cdef bint _advert(const unsigned char* src, Py_ssize_t n) except -1:
    """``segment._advert`` of a lowercase source."""
    cdef const unsigned char* host = <const unsigned char*> strstr(<const char*> src, b"//")
    cdef const unsigned char* host_end
    cdef Py_ssize_t size = 0, length, i
    cdef const char* name
    if host is not NULL:
        host += 2
        host_end = <const unsigned char*> strchr(<const char*> host, 47)  # "/"
        size = (host_end - host) if host_end is not NULL else (src + n - host)
        for i in range(len(_AD_HOSTS)):
            name = PyBytes_AS_STRING(<bytes> _AD_HOSTS[i])
            length = strlen(name)
            if size >= length and memcmp(host + size - length, name, length) == 0:
                return True
        if _starts_lower(host, size, b"ads.") or _starts_lower(host, size, b"adserver"):
            return True
        if (size >= 12 and memcmp(host + size - 12, b"facebook.com", 12) == 0
                and strstr(<const char*> src, b"/tr") is not NULL):
            return True
    return strstr(<const char*> src, b"/ads/") is not NULL or strstr(<const char*> src, b"/ad/") is not NULL


cdef struct _Words:
    # a set of lowercase ASCII words, for ``_has_word_n``: each word, and a quick test
    # (one bit per first letter, per length) that spares comparing most runs of letters
    int count
    const char* word[64]
    Py_ssize_t size[64]
    unsigned int firsts[33]


cdef _Words _DECORATIVE, _DECORATIVE_ALT
cdef list _held = []  # the bytes the word pointers point into


cdef void _read_words(_Words* into, words) except *:
    into.count = 0
    for k in range(33):
        into.firsts[k] = 0
    for word in sorted(words):
        data = word.encode()
        assert len(data) <= 32 and into.count < 64 and data.isalpha() and data.islower()
        _held.append(data)
        into.word[into.count] = PyBytes_AS_STRING(data)
        into.size[into.count] = len(data)
        into.firsts[len(data)] |= 1u << (data[0] - 97)
        into.count += 1


_read_words(&_DECORATIVE, DECORATIVE_WORDS)
_read_words(&_DECORATIVE_ALT, DECORATIVE_ALT_WORDS)


cdef bint _has_word(const unsigned char* value, _Words* words) noexcept:
    """``_has_word_n`` of a whole attribute value (none: False)."""
    return value is not NULL and _has_word_n(value, strlen(<const char*> value), words)


cdef bint _has_word_n(const unsigned char* s, Py_ssize_t n, _Words* words) noexcept:
    """``segment._named`` of ASCII ``s[:n]``: whether a run of its letters, lowercased,
    is one of ``words``.  ``_named``'s hints only spare work: every word holds one
    (``tests/test_csegment.py``)."""
    cdef Py_ssize_t i = 0, start, k, size
    cdef unsigned char run[32]
    while i < n:
        if not _letter(s[i]):
            i += 1
            continue
        start = i
        while i < n and _letter(s[i]):
            i += 1
        size = i - start
        if size > 32 or not (words.firsts[size] >> (_lower(s[start]) - 97)) & 1:
            continue
        for k in range(size):
            run[k] = _lower(s[start + k])
        for k in range(words.count):
            if words.size[k] == size and memcmp(run, words.word[k], size) == 0:
                return True
    return False


cdef inline bint _letter(unsigned char c) noexcept:
    return 97 <= c <= 122 or 65 <= c <= 90


cdef bint _alt_named(str alt) except -1:
    """``_named(alt.lower(), DECORATIVE_ALT_WORDS)``."""
    if not PyUnicode_IS_ASCII(alt):  # lower() may make ASCII letters ("K", the kelvin sign)
        return _named(alt.lower(), DECORATIVE_ALT_WORDS)
    return _has_word_n(<const unsigned char*> PyUnicode_DATA(alt), PyUnicode_GET_LENGTH(alt), &_DECORATIVE_ALT)
