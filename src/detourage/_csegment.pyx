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

from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.string cimport strcmp, strlen

cimport lxml.includes.etreepublic as cetree
from lxml.includes cimport tree
from lxml.includes.tree cimport xmlAttr, xmlNode

from .errors import LimitExceeded
from .model import Block
from .segment import (_CLOSING, _HIDDEN_STYLE, _LINE_CLASS, BLOCK_LEVEL, INVISIBLE, VOID, clean_text, count_line_end,
                      image_of, line_break, lines)

cetree.import_lxml__etree()

cdef object _search_hidden = _HIDDEN_STYLE.search
cdef object _search_line_class = _LINE_CLASS.search


cdef class _Tag:
    """What the walk needs to know about one tag name, computed once per name."""
    cdef str name
    cdef str closing
    cdef bint invisible, void, block, is_a, is_pre, is_img, is_br


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
    info.is_br = name == "br"
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
        if attr.ns is NULL and strcmp(<const char*> attr.name, name) == 0:
            return attr
        attr = attr.next
    return NULL


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
    """``is_hidden``, read from the attribute list in one pass."""
    cdef xmlAttr* attr = c_node.properties
    cdef xmlAttr* style = NULL
    while attr is not NULL:
        if attr.ns is NULL:
            if strcmp(<const char*> attr.name, b"hidden") == 0:
                return True
            if style is NULL and strcmp(<const char*> attr.name, b"style") == 0:
                style = attr
        attr = attr.next
    if style is NULL:
        return False
    if (style.children is not NULL and style.children.next is NULL and _is_text(style.children)
            and not _may_hide(<const unsigned char*> style.children.content)):
        return False
    value = _attr_value(doc, c_node, b"style")
    return bool(value) and _search_hidden(value) is not None


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


cdef class _Walk:
    """The state of one segmentation: the Python loop's local variables."""
    cdef cetree._Document doc
    cdef list blocks, crossed, stack, paths
    cdef dict shared  # equal path and crossed tuples made once (segment._Out.shared)
    cdef Py_ssize_t max_blocks
    cdef int links, pre, paragraph
    # in a <pre>: ends of line met since its last text (segment.ends_code_line), the depth
    # of the last one counted, and whether the last line is ended already
    cdef int line_ends, line_depth
    cdef bint line_start
    cdef bint breaks  # a block-level tag or <br> is among ``crossed``
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
        if self.breaks and count:
            self.paragraph += 1
        seen = tuple(self.crossed)
        seen = self.shared.setdefault(seen, seen)
        self.blocks.append(Block(count, text, path, seen,
                                 len(text) if self.links else 0, node,
                                 space or self.breaks or not count, self.paragraph, image, decorative))
        self.crossed.clear()
        self.breaks = False

    cdef tuple path(self):
        path = self.paths[-1] if self.paths else ()
        if path is None:
            path = tuple(self.stack)
            path = self.paths[-1] = self.shared.setdefault(path, path)
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

    cdef bint image(self, xmlNode* c_node, _Tag info) except -1:
        """An ``<img>`` with a source or alt text is a block of its own (``image_of``)."""
        node = self.node(c_node)
        found = image_of(node, _attributes(self.doc, c_node))
        if found is None:
            return False
        path = tuple(self.stack) + (info.name,)
        self.add(True, found[1], self.shared.setdefault(path, path), node, found[0], found[2])
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


def segment(cetree._Element root not None, limits):  # noqa: C901
    """The blocks of ``root``, identical to ``detourage.segment._segment(root, limits)``.

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
    cdef bint pending_space = False, starting = True, skip, skipped = False
    cdef xmlNode* text_from
    cdef xmlNode* first
    cdef xmlNode* holder
    w.doc = root._doc
    w.blocks, w.crossed, w.stack, w.paths = [], [], [], []
    w.shared = {}
    w.max_blocks = limits.max_blocks
    w.links = w.pre = w.paragraph = w.line_ends = w.line_depth = 0
    w.breaks = w.line_start = False
    w.held = []
    while True:
        skip = False
        if starting:  # the start event of c_node
            if c_node.type != tree.XML_ELEMENT_NODE:  # an entity reference: only its tail is text
                text_from = NULL
            else:
                info = w.tag(c_node)
                if info.invisible or _hidden(w.doc, c_node):
                    skip = skipped = True
                    text_from = NULL
                else:
                    nodes += 1
                    if nodes > max_nodes:
                        raise LimitExceeded("nodes", nodes, max_nodes)
                    w.cross(info.name, info.block)
                    if info.void:
                        if info.is_img and w.image(c_node, info):
                            pending_space = True
                        elif info.is_br:
                            w.line_start = True
                        text_from = NULL
                    else:
                        w.stack.append(info.name)
                        w.paths.append(None)
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
                pending_space = True
                skipped = False
            elif c_node.type == tree.XML_ELEMENT_NODE:
                info = w.tag(c_node)
                if not info.void:
                    w.paths.pop()
                    w.stack.pop()
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
    return w.blocks


cdef bint w_text(_Walk w, str text, xmlNode* holder, bint pending_space) except -1:
    """The text step at the end of the Python loop; returns the new pending-space state."""
    if not text.isascii():
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


cdef bint _ends_code_line(cetree._Document doc, xmlNode* c_node, _Tag info) except -1:
    """``segment.ends_code_line``, from the node's attribute list."""
    if info.block:
        return not info.is_pre
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


cdef int _scan(const unsigned char* s) noexcept:
    cdef int flags = ASCII | BLANK | COLLAPSED
    cdef unsigned char c
    cdef bint after_space = True  # a leading space is not collapsed either
    while s[0] != 0:
        c = s[0]
        if c >= 0x80:
            return 0
        if _ascii_space(c):
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
    return w_text(w, _utf8(<const char*> content), holder, pending_space)
