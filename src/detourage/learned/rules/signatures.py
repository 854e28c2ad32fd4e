"""A signature: the lines a forum prints under each of a member's posts (their rig, a
motto, links to their projects).

The model keeps them readily: under a post they read like its last lines, in its
container, and a thread repeats them in every post of a member.  What tells them apart
is the name every forum engine gives their box: XenForo's ``message-signature``, vBulletin's
``signaturecontainer``, phpBB's ``signature``, Invision's ``ipsEntry__signature``,
Discourse plug-ins' ``user-signature``.  Readers skip them, and golds leave them out.

The caller runs the step on forum pages only: the walk from every kept line up to a
name cost 1.5 % of the instructions at the median page (``instructions_ab.py``), and
elsewhere (a news site's box signing its stories) it found little.
"""

from __future__ import annotations

import re

import numpy as np
from lxml import etree

from ...model import Page
from .. import features
from .ancestors import around_title, nearest_named


def drop_signatures(page: Page, para: features.Paragraphs, keep: np.ndarray, barred: np.ndarray) -> int:
    """Drop the kept lines inside an element whose class or id names a signature
    (:func:`signature_name`), the nearest such element above each line, and mark them in
    ``barred``.  A box that holds the page's title, or at least :data:`SIGNATURE_SHARE`
    of the kept text, is the page itself (a theme named "signature" on its ``<body>``):
    its lines stay.  Returns how many lines were dropped."""
    boxes: dict[etree._Element, list[int]] = {}
    known: dict[etree._Element, etree._Element | None] = {}
    for line in keep.nonzero()[0].tolist():
        box = nearest_named(page.blocks[para.starts[line]].node, _SIGNATURE_WORD, known)
        # the nearest box whose name holds the word: when that is no signature's name
        # ("feature-digital-signature-card"), the line is in no signature
        if box is not None and signature_name(f"{box.get('class') or ''} {box.get('id') or ''}"):
            boxes.setdefault(box, []).append(line)
    if not boxes:
        return 0
    above_title = around_title(page, para)
    total = float(para.chars[keep].sum())
    dropped = 0
    for box, inside in boxes.items():
        if box in above_title or para.chars[inside].sum() >= SIGNATURE_SHARE * total:
            continue
        keep[inside] = False
        barred[inside] = True
        dropped += len(inside)
    return dropped


def signature_name(name: str) -> bool:
    """Whether a class or id names a signature's box: one of its words is "signature"
    or ends or starts with it, a word of its own between ``-`` and ``_``
    ("message-signature", "ipsEntry__signature", "signature-content", "user-signature"),
    or a forum engine's compound ("signaturecontainer", "postsignature", "usersig",
    "sig_text"); not a name that holds it in its middle ("feature-digital-signature-card":
    a page about electronic signatures), nor Sphinx's ``sig`` of a function's signature
    (``sig sig-object py``)."""
    for word in name.lower().split():
        if word in _COMPOUNDS:
            return True
        for block in word.split("__"):
            parts = [p for p in re.split(r"[-_]", block) if p]
            if parts and (parts[0] == "signature" or parts[-1] == "signature"):
                return True
    return False


#: a signature's box holding at least this share of the page's kept text is the page itself
SIGNATURE_SHARE = 0.5
#: forum engines' names of a signature's box written as one word
_COMPOUNDS = frozenset({"signaturecontainer", "postsignature", "usersignature", "usersig", "sig_text",
                        "signaturebox"})
#: the names :func:`signature_name` may accept, found first (a fast test on every element)
_SIGNATURE_WORD = re.compile(r"signature|usersig|sig_text")
