"""detourage.site.distance: the MinHash structural distance and the exact tree edit distance."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from lxml import etree

from detourage.api import load
from detourage.site import distance as sd

from conftest import needs_shared


def _article(title: str, paragraphs: list[str], *, nav: int = 5) -> bytes:
    """A news-like page of one template: header, nav, article, sidebar, footer."""
    links = "".join(f'<li><a href="/s{i}">Section {i}</a></li>' for i in range(nav))
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (f"<html><head><title>{title}</title><script>var x = 1;</script></head><body>"
            f'<div id="top"><h1 class="logo">Site</h1><ul class="nav">{links}</ul></div>'
            f'<div class="main"><h2>{title}</h2><div class="text">{body}</div></div>'
            '<div class="side"><h3>Most read</h3><ul><li><a href="/a">A</a></li>'
            '<li><a href="/b">B</a></li></ul></div>'
            '<div class="foot"><p>© Site</p><a href="/legal">Legal</a></div>'
            "</body></html>").encode()


def _gallery() -> bytes:
    """A page of another template: a table of thumbnails in nested sections."""
    cells = "".join(f'<td><span><img src="/{i}.jpg" alt="{i}"><em>{i}</em></span></td>'
                    for i in range(4))
    rows = "".join(f"<tr>{cells}</tr>" for _ in range(5))
    return (f"<html><body><section><header><b>Gallery</b></header><table>{rows}</table>"
            "</section><form><input name=q><button>Go</button></form></body></html>").encode()


def _tree(html: bytes) -> etree._Element:
    return load(html).tree


def _xml(text: str) -> sd.OrderedTree:
    return sd.ordered_tree(etree.fromstring(text))


# ------------------------------------------------------------------------------- MinHash

def test_identical_pages_are_at_distance_zero() -> None:
    page = _article("Title", ["one", "two", "three"])
    a, b = sd.signature(_tree(page)), sd.signature(_tree(page))
    assert sd.distance(a, b) == 0.0
    assert sd.jaccard_distance(sd.shingles(_tree(page)), sd.shingles(_tree(page))) == 0.0


def test_same_template_is_closer_than_another_template() -> None:
    a = _tree(_article("Storm hits the coast", ["Rain.", "Wind.", "Floods.", "Damage."]))
    b = _tree(_article("Elections next week", ["Polls.", "Candidates.", "Debate."]))
    c = _tree(_gallery())
    same = sd.distance(sd.signature(a), sd.signature(b))
    other = sd.distance(sd.signature(a), sd.signature(c))
    assert same < 0.3
    assert other > 0.8
    assert sd.jaccard_distance(sd.shingles(a), sd.shingles(b)) < 0.3


def test_text_alone_changes_nothing() -> None:
    a = _tree(_article("One", ["alpha", "beta"]))
    b = _tree(_article("Two", ["gamma delta epsilon", "zeta"]))
    assert sd.distance(sd.signature(a), sd.signature(b)) == 0.0


def test_invisible_elements_are_ignored() -> None:
    plain = _article("T", ["x"])
    extra = b"<body><script>1</script><!-- c --><div hidden><p>h</p></div>"
    noisy = plain.replace(b"<body>", extra)
    assert sd.tag_paths(_tree(plain)) == sd.tag_paths(_tree(noisy))


def test_class_tokens_are_optional_and_digits_folded() -> None:
    tree = etree.fromstring('<html><body><div class="post-123 b a"/></body></html>')
    assert sd.tag_paths(tree)[-1] == "html/body/div"
    assert sd.tag_paths(tree, classes=True)[-1] == "html/body/div.a.b.post-0"


def test_distance_matrix_matches_pairwise_distances() -> None:
    pages = [_article("a", ["x"] * n, nav=m) for n, m in [(1, 2), (3, 5), (8, 1)]] + [_gallery()]
    sigs = [sd.signature(_tree(p)) for p in pages]
    matrix = sd.distances(sigs, block=3)
    assert matrix.shape == (4, 4)
    assert np.allclose(matrix, matrix.T) and np.all(np.diag(matrix) == 0)
    for i in range(4):
        for j in range(4):
            assert matrix[i, j] == pytest.approx(sd.distance(sigs[i], sigs[j]))


def test_minhash_estimates_jaccard() -> None:
    rng = np.random.default_rng(0)
    universe = rng.integers(0, 2**63, size=3000, dtype=np.uint64)
    a, b = np.unique(universe[:2000]), np.unique(universe[1000:])
    options = sd.DistanceOptions(permutations=512)
    est = sd.distance(sd.minhash(a, options.permutations), sd.minhash(b, options.permutations))
    assert est == pytest.approx(sd.jaccard_distance(a, b), abs=0.06)


def test_empty_pages() -> None:
    empty = sd.signature(None)
    full = sd.signature(_tree(_gallery()))
    assert sd.distance(empty, empty) == 0.0
    assert sd.distance(empty, full) == 1.0
    assert sd.jaccard_distance(sd.shingles(None), sd.shingles(None)) == 0.0


def test_signature_is_the_same_in_another_process() -> None:
    page = _article("Determinism", ["a", "b", "c"])
    here = sd.signature(_tree(page))
    code = ("import sys; from detourage.api import load; from detourage.site import distance as sd;"
            "print(' '.join(map(str, sd.signature(load(sys.stdin.buffer.read()).tree))))")
    out = subprocess.run([sys.executable, "-c", code], input=page, capture_output=True,
                         check=True, env={"PYTHONHASHSEED": "12345"})
    assert np.array_equal(np.array(out.stdout.split(), dtype=np.uint64), here)


# ------------------------------------------------------------------------ tree edit distance

@pytest.mark.parametrize(("a", "b", "expected"), [
    ("<a/>", "<a/>", 0),
    ("<a/>", "<b/>", 1),
    ("<a><b/></a>", "<a/>", 1),
    ("<a><b/><c/></a>", "<a><c/><b/></a>", 2),
    # delete a node: its children move up to its parent
    ("<a><x><b/><c/></x></a>", "<a><b/><c/></a>", 1),
    # Zhang & Shasha's example (zss's README): distance 2
    ("<f><d><a/><c><b/></c></d><e/></f>", "<f><c><d><a/><b/></d></c><e/></f>", 2),
])
def test_tree_edit_distance_known_cases(a: str, b: str, expected: int) -> None:
    assert sd.tree_edit_distance(_xml(a), _xml(b)) == expected
    assert sd.tree_edit_distance(_xml(b), _xml(a)) == expected


def _reference_ted(a: sd.OrderedTree, b: sd.OrderedTree) -> int:
    """Textbook Zhang–Shasha, plain Python loops, to check the vectorised one."""
    l1, l2 = [int(x) for x in a.leftmost], [int(x) for x in b.leftmost]
    td = [[0] * len(b) for _ in a.labels]
    for k1 in sd._keyroots(a.leftmost):
        for k2 in sd._keyroots(b.leftmost):
            lo1, lo2 = l1[k1], l2[k2]
            fd = {(lo1 - 1, lo2 - 1): 0}
            for i in range(lo1, k1 + 1):
                fd[i, lo2 - 1] = fd[i - 1, lo2 - 1] + 1
            for j in range(lo2, k2 + 1):
                fd[lo1 - 1, j] = fd[lo1 - 1, j - 1] + 1
            for i in range(lo1, k1 + 1):
                for j in range(lo2, k2 + 1):
                    if l1[i] == lo1 and l2[j] == lo2:
                        cost = fd[i - 1, j - 1] + (a.labels[i] != b.labels[j])
                        fd[i, j] = td[i][j] = min(fd[i - 1, j] + 1, fd[i, j - 1] + 1, cost)
                    else:
                        fd[i, j] = min(fd[i - 1, j] + 1, fd[i, j - 1] + 1,
                                       fd[l1[i] - 1, l2[j] - 1] + td[i][j])
    return td[-1][-1]


def _random_tree(rng: random.Random, size: int, deep: float) -> etree._Element:
    root = etree.Element(rng.choice("abc"))
    nodes = [root]
    for _ in range(size - 1):
        parent = nodes[-1] if rng.random() < deep else rng.choice(nodes)
        nodes.append(etree.SubElement(parent, rng.choice("abc")))
    return root


def test_tree_edit_distance_matches_the_textbook_loops() -> None:
    rng = random.Random(4)
    for _ in range(60):
        a = sd.ordered_tree(_random_tree(rng, rng.randint(1, 18), rng.random()))
        b = sd.ordered_tree(_random_tree(rng, rng.randint(1, 18), rng.random()))
        assert sd.tree_edit_distance(a, b) == _reference_ted(a, b)


def test_ordered_tree_skips_invisible_and_caps() -> None:
    tree = etree.fromstring("<html><head><title>t</title></head><body><p>x</p><script/>"
                            '<div style="display:none"><p/></div><ul><li/><li/></ul></body></html>')
    full = sd.ordered_tree(tree)
    assert full.labels == ("head", "p", "li", "li", "ul", "body", "html")
    assert list(full.leftmost) == [0, 1, 2, 3, 2, 1, 0]
    capped = sd.ordered_tree(tree, max_nodes=3)
    assert capped.labels == ("head", "body", "html")


def test_normalised_tree_distance_bounds() -> None:
    a, b = _xml("<a><b/><c/></a>"), _xml("<x><y><z/></y></x>")
    assert 0.0 < sd.normalised_tree_distance(a, b) <= 1.0
    assert sd.normalised_tree_distance(a, a) == 0.0
    empty = sd.ordered_tree(None)
    assert sd.tree_edit_distance(empty, a) == 3
    assert sd.normalised_tree_distance(empty, empty) == 0.0


def test_real_pages_of_one_host_are_closer_than_across_hosts() -> None:
    from detourage.gold import load_dataset

    folder = needs_shared("datasets", "daniel")
    docs = [d for d in load_dataset(folder).documents if d.meta.get("host") == "www.express.gr"][:2]
    other = next(d for d in load_dataset(folder).documents if d.meta.get("host") == "www.bbc.co.uk")
    sigs = [sd.signature(load(d.read_html()).tree) for d in [*docs, other]]
    assert sd.distance(sigs[0], sigs[1]) < sd.distance(sigs[0], sigs[2])
