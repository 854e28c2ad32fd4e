"""What an inspector session knows: its pages, the labels of each page from every source,
the shown pages, and the annotations it writes.

A *source* of labels is a method name (or chain), ``gold`` (the dataset's gold text
aligned to the blocks, as ``detourage anno`` and ``train victor`` label pages), or
``anno`` (the page's saved ``.anno`` file).  Pages and labels are cached (a few recent
pages), so moving between methods and back costs nothing.  The session is shared by the
server's threads: one lock guards the caches and the list of files that may be served;
loading and labelling happen outside it, so requests never queue behind a slow page.

A page is read within the size limit of ``detourage extract`` (a ``.html.gz`` is unpacked
no further than that), so one file cannot take the machine's memory; a page over it is an
error shown for that page.  Its work is bounded in time (``timeout``, as
``extract(…, timeout=…)`` bounds it, :func:`detourage.bounded.call`): loading it is first
tried in a child process killed past the limit, since a parse stuck in libxml2 cannot be
interrupted, and only a page that ends in time is loaded in the server (its tree cannot
cross between processes); a method's labels are computed in a child forked from the
server, which holds the page already, and only the labels cross back.

Loading a page lists the files beside it that it references (:mod:`.assets`): only
those are served.
"""

from __future__ import annotations

import os
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .. import bounded, methods
from ..errors import DetourageError
from ..gold import align
from ..loading import load
from ..model import Label, Page
from ..pipeline import run
from ..render import units
from ..settings import TIMEOUT, Settings
from ..victor import anno
from .assets import servable
from .catalog import Catalog, Entry, annotation_path, inside
from .markup import Display, display, twin

#: pages kept loaded (each holds two trees: the page's and the shown copy)
CACHED_PAGES = 8
#: the colours of labels and differences inside the shown page
PAGE_STYLE = (Path(__file__).parent / "static" / "page.css").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class Loaded:
    """A page loaded once for the methods, and its shown copy."""

    page: Page
    shown: Display


class _Cache(OrderedDict):
    """A small least-recently-used mapping."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def fetch(self, key: Any, make: Callable[[], Any], lock: threading.Lock) -> Any:
        with lock:
            if key in self:
                self.move_to_end(key)
                return self[key]
        value = make()
        with lock:
            self[key] = value
            while len(self) > self.size:
                self.popitem(last=False)
        return value


class Session:
    """The state behind one ``detourage ui`` server."""

    def __init__(self, catalog: Catalog, method_names: Sequence[str], annotations: str | os.PathLike[str], *,
                 remote_assets: bool = False, settings: Settings = Settings(timeout=TIMEOUT)) -> None:
        for name in method_names:
            methods.chain(name)  # an unknown method fails now, not on the first page
        self.catalog = catalog
        self.methods = list(dict.fromkeys(method_names)) or ["default"]
        self.annotations = Path(annotations).absolute()
        self.remote_assets = remote_assets
        #: how pages are loaded and labelled (limits, repair, method options), and the
        #: seconds a page's work may take (0: unbounded, run in the server's thread)
        self.settings = settings
        #: the per-session secret every write must carry (header X-Detourage-Token)
        self.token = secrets.token_urlsafe(32)
        self._lock = threading.Lock()
        self._pages = _Cache(CACHED_PAGES)
        self._labels = _Cache(CACHED_PAGES * 8)
        self._kinds: dict[str, Any] = {}
        #: the files beside the pages loaded so far that the pages reference (resolved)
        self._assets: set[Path] = set()

    @property
    def timeout(self) -> float:
        return self.settings.timeout

    # ------------------------------------------------------------------ pages

    def loaded(self, key: str) -> Loaded:
        """The page of ``key`` and its shown copy (UnknownPage for a key not in the catalog).
        A page that cannot be shown fails once: its error is kept with the loaded pages,
        so that asking again costs nothing (not another load up to the timeout)."""
        entry = self.catalog.get(key)
        result = self._pages.fetch(key, lambda: self._attempt(entry), self._lock)
        if isinstance(result, DetourageError):
            raise DetourageError(str(result)) from result
        return result

    def _attempt(self, entry: Entry) -> Loaded | DetourageError:
        try:
            return self._load(entry)
        except DetourageError as exc:
            return exc

    def _load(self, entry: Entry) -> Loaded:
        base = self._base(entry)
        try:
            data = entry.read()
            self._tried(lambda: self._shown(entry, data, base))
            page, shown = self._shown(entry, data, base)
        except DetourageError as exc:
            raise DetourageError(f"{entry.key}: cannot be shown: {exc}") from exc
        if base.startswith("/files/"):
            files = servable(entry.path.parent, shown.references)
            with self._lock:
                self._assets |= files
        return Loaded(page, shown)

    def _shown(self, entry: Entry, data: bytes, base: str) -> tuple[Page, Display]:
        page = load(data, self.settings, url=entry.url)
        return page, display(*twin(page.tree, page.blocks), base=base, style=PAGE_STYLE)

    def _tried(self, work: Callable[[], Any]) -> None:
        """Run ``work`` in a child process killed past the timeout, for its errors only
        (LimitExceeded ``time`` past it); nothing when the session has no timeout."""
        def discarded() -> None:
            work()

        if self.timeout:
            bounded.call(discarded, self.timeout)

    def _bounded(self, work: Callable[[], Any]) -> Any:
        """``work()`` (a picklable value) from a child process killed past the timeout."""
        return bounded.call(work, self.timeout) if self.timeout else work()

    def asset(self, root: int, relative: str) -> Path | None:
        """The file ``/files/<root>/<relative>`` names, when a page loaded in this session
        references it (see :mod:`.assets`); None for any other path."""
        if not 0 <= root < len(self.catalog.roots):
            return None
        target = inside(self.catalog.roots[root], relative)
        with self._lock:
            return target if target in self._assets else None

    def _base(self, entry: Entry) -> str:
        """Where the shown page's relative links point: the page's folder under its root
        (served by ``/files``), or its URL when remote assets are allowed and it is a web
        address (an ``http:`` or ``https:`` URL with a host; never ``javascript:``)."""
        if self.remote_assets and entry.url and web_url(entry.url):
            return entry.url
        folder = entry.path.parent.relative_to(entry.root).as_posix()
        index = self.catalog.roots.index(entry.root)
        return f"/files/{index}/" + ("" if folder == "." else folder.strip("/") + "/")

    def info(self, key: str) -> dict[str, Any]:
        """What the inspector shows about a page besides its labels."""
        entry = self.catalog.get(key)
        loaded = self.loaded(key)
        page = loaded.page
        return {"key": key, "group": entry.group, "id": entry.id, "lang": entry.lang, "url": entry.url,
                "title": page.title, "encoding": page.decoded.encoding,
                "blocks": [{"text": b.text, "tag": b.tag, "image": b.image is not None} for b in page.blocks],
                "located": loaded.shown.located, "gold": entry.has_gold,
                "annotation": self._relative(annotation_path(self.annotations, entry)),
                "annotated": annotation_path(self.annotations, entry).is_file(),
                "sources": self.sources(entry)}

    def sources(self, entry: Entry) -> list[str]:
        """The label sources of a page: the methods, then gold and anno where they exist."""
        extra = ["gold"] if entry.has_gold else []
        extra += ["anno"] if annotation_path(self.annotations, entry).is_file() else []
        return [*self.methods, *extra]

    def _relative(self, path: Path) -> str:
        try:
            return os.path.relpath(path)
        except ValueError:  # another drive
            return str(path)

    # ----------------------------------------------------------------- labels

    def labels(self, key: str, source: str) -> tuple[Label, ...]:
        """The labels of a page from a source (see the module docstring)."""
        entry = self.catalog.get(key)
        if source not in ("gold", "anno"):
            methods.chain(source)  # UnknownMethod for a name that is none
        path = annotation_path(self.annotations, entry)
        stamp = path.stat().st_mtime_ns if source == "anno" and path.is_file() else None
        return self._labels.fetch((key, source, stamp), lambda: self._labelled(entry, source),
                                  self._lock)

    def _labelled(self, entry: Entry, source: str) -> tuple[Label, ...]:
        page = self.loaded(entry.key).page
        if source == "anno":
            return self._annotated(entry, page)
        if source != "gold":
            return self._bounded(lambda: run(page, source, dict(self.settings.options)).labels.labels)
        if not entry.has_gold or entry.doc is None:
            raise DetourageError(f"{entry.key}: no gold text to align")
        kinds = self._kinds.get(entry.group) or align.dataset_kinds(self.catalog.datasets[entry.group])
        self._kinds[entry.group] = kinds
        return self._bounded(lambda: self._aligned(entry, page, kinds))

    def _aligned(self, entry: Entry, page: Page, kinds: Any) -> tuple[Label, ...]:
        """The page's labels from its dataset's gold text, aligned to its blocks."""
        assert entry.doc is not None
        labelled = align.label_document(entry.doc, replace(align.AlignOptions(), kinds=kinds), dataset=entry.group)
        if labelled.page is None or len(labelled.labels) != len(page.blocks):
            raise DetourageError(f"{entry.key}: the gold could not be aligned "
                                 f"({labelled.report.error}: {labelled.report.message})")
        return labelled.labels

    def _annotated(self, entry: Entry, page: Page) -> tuple[Label, ...]:
        path = annotation_path(self.annotations, entry)
        if not path.is_file():
            raise DetourageError(f"{entry.key}: not annotated yet")
        annotation = anno.read(path)
        try:
            return anno.attach(page, annotation)
        except anno.AnnoError:  # written for another segmentation: align it by text
            return anno.attach(page, annotation, strict=False)

    def units(self, key: str, source: str) -> list[dict[str, Any]]:
        """The output units the labels of ``source`` make: kind letter, text, block ids."""
        page = self.loaded(key).page
        return [{"kind": anno.LETTERS[u.kind], "text": u.text, "blocks": [b.id for b in u.blocks]}
                for u in units(page.blocks, self.labels(key, source)) if u.text]

    # ------------------------------------------------------------ annotations

    def save(self, key: str, letters: Sequence[str]) -> dict[str, Any]:
        """Write the page's ``.anno`` from one tag letter per block (p h l c o)."""
        entry = self.catalog.get(key)
        page = self.loaded(key).page
        if (not isinstance(letters, (list, tuple)) or len(letters) != len(page.blocks)
                or not all(isinstance(x, str) and x in anno.TAGS for x in letters)):
            raise DetourageError(f"{key}: expected {len(page.blocks)} labels, one of "
                                 f"{' '.join(anno.TAGS)} per block")
        given = [anno.TAGS[x] for x in letters]
        labels = anno.settle(given)
        path = annotation_path(self.annotations, entry)
        path.parent.mkdir(parents=True, exist_ok=True)
        text = anno.dumps(page.blocks, labels, source=anno.relative_source(entry.path, path))
        partial = path.with_name(path.name + ".part")
        partial.write_text(text, encoding="utf-8", newline="\n")
        os.replace(partial, path)
        changed = sum(a is not b for a, b in zip(given, labels))
        return {"path": self._relative(path), "blocks": len(labels), "settled": changed,
                "labels": [anno.LETTERS[x] for x in labels]}

    def progress(self) -> dict[str, Any]:
        """Pages annotated and left, over the session and per group."""
        groups: dict[str, dict[str, int]] = {}
        for entry in self.catalog.entries:
            row = groups.setdefault(entry.group, {"pages": 0, "done": 0})
            row["pages"] += 1
            row["done"] += annotation_path(self.annotations, entry).is_file()
        done = sum(g["done"] for g in groups.values())
        return {"pages": len(self.catalog), "done": done, "left": len(self.catalog) - done, "groups": groups}

    def listing(self) -> list[dict[str, Any]]:
        """Every page of the session: key, group, id, language, gold, annotated."""
        return [{"key": e.key, "group": e.group, "id": e.id, "lang": e.lang, "gold": e.has_gold,
                 "annotated": annotation_path(self.annotations, e).is_file()}
                for e in self.catalog.entries]


def web_url(url: str) -> bool:
    """Whether ``url`` is an ``http:`` or ``https:`` address with a host."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # an invalid IPv6 host
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
