"""Fuzzing the whole road: bytes → decode → parse → segment → every method → every renderer.

One input goes through ``detourage.load`` and then every registered method (peers left
out: they are other libraries; methods that need a fitted template, ``template`` and its
variants, left out; a method that fails on a plain page at start, such as one whose
model file is missing, is listed as skipped) and every output format.  Errors of the
documented hierarchy (:class:`detourage.DetourageError`: a limit exceeded…) are answers;
any other exception is a **crash**, and an input taking more than ``--hang`` seconds of
CPU time a **hang** (CPU time: a busy machine does not make hangs, and libFuzzer keeps
SIGALRM for itself).  Crashes are told apart by exception type and the innermost detourage frame;
the first input of each is saved under ``--out``.

Inputs are the shared pages (truncated to ``--seed-bytes``) and mutations of them:
byte flips, cuts, splices of two pages, repeated or deleted spans, and insertions of
markup, control bytes, charset declarations and entities (:func:`mutate`).  Engines:

``atheris``
    libFuzzer with coverage of detourage's Python code (``pip install atheris``), the
    seed pages as its starting corpus, our mutator as its custom mutator half the time;
``mutate``
    a plain loop of :func:`mutate` over the seeds, no coverage (when atheris is absent).

The same harness (:func:`one_input`) runs under hypothesis in ``tests/test_fuzz.py``.

``--target web`` fuzzes instead what a hostile web site feeds the crawler (issue 44):
each input is read as a sitemap and as a feed under every media type, as robots.txt, and
as a body in every content coding (:func:`web_input`); the seeds are sitemaps, indexes,
RSS, Atom and JSON feeds, robots.txt files, nested JSON and compressed bodies
(:func:`web_seeds`).  An outcome (a file ``unreadable``, ``too-large``…) is an answer;
an exception, or a decoded body past its limit, is a crash.  Its hypothesis twin is
``tests/test_web_fuzz.py``.

    python benchmarks/fuzz.py [--target road|web] [--minutes 10] [--engine atheris|mutate] [--out DIR] [--json PATH]

Exit status 0 when no crash and no hang was found, 1 otherwise.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import _common

#: longest input tried: small pages run faster, and every branch of the road is reached
#: by 16 KB of markup as well as by a megabyte
MAX_LEN = 32_768
FORMATS = ("txt", "cleaneval", "markdown", "html", "json")
#: a known good page: a method that fails on it is skipped, not fuzzed
PLAIN_PAGE = b"<html><head><title>T</title></head><body><h1>Title</h1><p>" + b"Some text. " * 30 + b"</p></body></html>"
#: what mutations insert: markup, controls, declarations, entities, bytes of other codecs
SNIPPETS = (
    b"<p>", b"</p>", b"<div>", b"</div>", b"<table><tr><td>", b"</td></tr></table>", b"<br>",
    b"<pre>", b"</pre>", b"<li>", b"<ul>", b"<h1>", b"<script>", b"</script>", b"<style>",
    b"<!--", b"-->", b"<![CDATA[", b"]]>", b"<?xml version='1.0' encoding='utf-16'?>",
    b'<meta charset="gb2312">', b'<meta charset="utf-16">', b'<meta charset="shift_jis">',
    b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">', b"<plaintext>",
    b"<textarea>", b"<noscript>", b"<svg><foreignObject>", b"<math>", b"<img alt='x'>",
    b"<a href='#'>", b"</a>", b"<title>", b"</title", b"<body>", b"<html ", b"<head>",
    b"&amp;", b"&#0;", b"&#xD800;", b"&#1114112;", b"&nbsp;", b"&lt;", b"&#x1F600;",
    b"\x00", b"\x01", b"\x0b", b"\x1a", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf",
    b"\x81", b"\xa1\xa1", b"\xe4\xb8", b"\xc3", b"\xd0\xbf\xd1\x80", b"\xed\xa0\x80",
    b"<!DOCTYPE html PUBLIC '-//W3C//DTD XHTML 1.0 Strict//EN' [<!ENTITY a 'aaaa'>]>", b"&a;",
    b"\r", b"\r\n", b"\t", b"\xc2\xa0", b"\xe2\x80\xa8",
)


@dataclass
class Finding:
    """A distinct crash (or a hang): its key, how often it was hit, the first input."""

    kind: str
    key: str
    count: int
    message: str
    input_sha1: str
    input_len: int
    trace: str = ""


@dataclass
class Harness:
    """Runs inputs through the road and keeps what went wrong."""

    methods: list[str]
    hang_seconds: float = 10.0
    executions: int = 0
    findings: dict[str, Finding] = field(default_factory=dict)
    out: Path | None = None
    #: the harness an input goes through (default :func:`one_input`; ``--target web``: :func:`web_input`)
    target: Callable[[bytes, list[str]], None] | None = None

    def __call__(self, data: bytes) -> None:
        self.executions += 1
        try:
            with _alarm(self.hang_seconds):
                (self.target or one_input)(data, self.methods)
        except _Hang:
            self._record("hang", "hang", f"over {self.hang_seconds} s of CPU", data, "")
        except Exception as exc:  # noqa: BLE001 - every crash is recorded, the run goes on
            key = _crash_key(exc)
            self._record("crash", key, f"{type(exc).__name__}: {exc}"[:300], data, traceback.format_exc())

    def _record(self, kind: str, key: str, message: str, data: bytes, trace: str) -> None:
        if key in self.findings:
            self.findings[key].count += 1
            return
        digest = hashlib.sha1(data).hexdigest()
        self.findings[key] = Finding(kind, key, 1, message, digest, len(data), trace[-3000:])
        if self.out is not None:
            self.out.mkdir(parents=True, exist_ok=True)
            (self.out / f"{kind}-{digest[:12]}.html").write_bytes(data)
        print(f"fuzz: new {kind} {key}: {message}", file=sys.stderr)


def fuzzed_methods() -> tuple[list[str], dict[str, str]]:
    """The registry's methods to fuzz, and those skipped with why (iterated, never listed
    by hand: a method added to the registry is fuzzed from then on)."""
    import detourage
    from detourage import methods

    chosen, skipped = [], {}
    for method in methods.available():
        if method.seed == "peer":
            skipped[method.name] = "a peer library (its own fuzzing is its authors')"
        elif methods.uses_template(method.name):
            skipped[method.name] = "needs a template fitted on sibling pages"
        else:
            try:
                detourage.run(detourage.load(PLAIN_PAGE), method.name)
            except Exception as exc:  # noqa: BLE001 - a method unusable here is reported, not fuzzed
                skipped[method.name] = f"fails on a plain page: {type(exc).__name__}: {exc}"[:200]
            else:
                chosen.append(method.name)
    return chosen, skipped


def one_input(data: bytes, method_names: list[str]) -> None:
    """The harness: every method and every format on one page; documented errors are answers."""
    import detourage
    from detourage.errors import DetourageError

    try:
        page = detourage.load(data)
    except DetourageError:
        return
    for name in method_names:
        try:
            result = detourage.run(page, name)
        except DetourageError:
            continue
        for format in FORMATS:
            try:
                output = detourage.render(result, format)
            except DetourageError:
                continue
            if not isinstance(output, str):
                raise TypeError(f"{name}/{format} rendered {type(output).__name__}, not str")


#: the media types a fetched sitemap or feed may come with
WEB_MEDIA = ("", "application/xml", "application/feed+json", "text/html", "text/plain")
#: the largest body a coding may give in :func:`web_input`
WEB_LIMIT = 1 << 16


def web_input(data: bytes, method_names: list[str]) -> None:
    """The web harness: ``data`` as a sitemap and a feed (every media type), as robots.txt,
    and as a body in every content coding; outcomes are answers."""
    from detourage.codings import decode
    from detourage.web.client import Fetched, _parse_robots
    from detourage.web.discover import _parse, _Unread

    for kind in ("sitemap", "feed"):
        for media in WEB_MEDIA:
            fetched = Fetched("http://a.example/s", "fetched", 200, "http://a.example/s",
                              (("Content-Type", media),) if media else (), data)
            try:
                _parse(fetched, kind)
            except _Unread:
                pass
    rules, _ = _parse_robots(data.decode("utf-8", "replace"), "detourage-fuzz")
    if not isinstance(rules, bool):
        rules.can_fetch("http://a.example/private/x", "detourage-fuzz")
    for coding in ("gzip", "deflate", "br", "gzip, br"):
        decoded = decode(data, coding, WEB_LIMIT)
        if len(decoded.data) > WEB_LIMIT:
            raise AssertionError(f"{coding} decoded past its limit: {len(decoded.data)} bytes")


def web_seeds() -> list[bytes]:
    """Sitemaps, an index, feeds (RSS, Atom, JSON), robots.txt, nested JSON and
    compressed bodies: where :func:`web_input`'s mutations start."""
    urls = "".join(f"<url><loc>http://a.example/{n}</loc></url>" for n in range(20))
    xml = [f'<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>',
           '<sitemapindex><sitemap><loc>http://a.example/s1.xml</loc></sitemap></sitemapindex>',
           '<rss version="2.0"><channel><item><link>http://a.example/1</link><guid>g</guid></item></channel></rss>',
           '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="http://a.example/2"/></entry></feed>',
           '<html><head><link rel="alternate" type="application/rss+xml" href="/feed.rss"></head></html>',
           json.dumps({"version": "https://jsonfeed.org/version/1.1", "items": [{"url": "http://a.example/3"}]}),
           "User-agent: *\nDisallow: /private/\nCrawl-delay: 2\nSitemap: http://a.example/s.xml\n",
           "http://a.example/1\nhttp://a.example/2\n"]
    seeds = [text.encode() for text in xml]
    seeds += [b'{"items": ' + b"[" * 5000, b"<a>" * 3000, gzip.compress(seeds[0]), gzip.compress(b" " * 200_000) * 2]
    try:
        import brotli
    except ImportError:
        return seeds
    return [*seeds, brotli.compress(b" " * 500_000)]


def _crash_key(exc: BaseException) -> str:
    """Exception type and the innermost frame inside detourage (else the innermost one)."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "detourage" in f.filename] or frames
    where = f"{Path(ours[-1].filename).name}:{ours[-1].lineno}" if ours else "?"
    return f"{type(exc).__name__}@{where}"


class _Hang(BaseException):
    """Raised by the alarm; a BaseException so that no ``except Exception`` swallows it."""


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    """Raise :class:`_Hang` after ``seconds`` of this process's CPU time."""
    def ring(signum: int, frame: object) -> None:
        raise _Hang()

    previous = signal.signal(signal.SIGPROF, ring)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# --- inputs ----------------------------------------------------------------------------------

def seed_pages(limit: int = 200, seed_bytes: int = 16_384, shared: Path = _common.SHARED) -> list[bytes]:
    """Up to ``limit`` shared pages (every dataset in turn, a fixed sample), each cut to
    ``seed_bytes``; a few synthetic pages when the shared data is absent."""
    files = sorted([*shared.glob("datasets/*/html/*.html"), *shared.glob("datasets-extra/*/html/*.html.gz")])
    random.Random(0).shuffle(files)
    pages = []
    for path in files[:limit]:
        data = gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_bytes()
        pages.append(data[:seed_bytes])
    return pages or [PLAIN_PAGE, b"", b"<p>\xe4\xb8\xad\xe6\x96\x87</p>", "<p>Грüße</p>".encode("utf-16")]


def mutate(data: bytes, rng: random.Random, others: list[bytes] | None = None, max_len: int = MAX_LEN) -> bytes:
    """One to four random mutations of ``data`` (see the module docstring)."""
    for _ in range(rng.randint(1, 4)):
        data = _MUTATIONS[rng.randrange(len(_MUTATIONS))](data, rng, others or [data])
    return data[:max_len]


def _pos(data: bytes, rng: random.Random) -> int:
    return rng.randint(0, len(data))


def _flip(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]


def _insert(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    i = _pos(data, rng)
    return data[:i] + rng.choice(SNIPPETS) * rng.choice((1, 1, 2, 50)) + data[i:]


def _cut(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    i, j = sorted((_pos(data, rng), _pos(data, rng)))
    return data[:i] + data[j:] if rng.random() < 0.5 else data[:j]


def _repeat(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    i = _pos(data, rng)
    j = min(len(data), i + rng.randint(1, 200))
    return data[:j] + data[i:j] * rng.randint(2, 100) + data[j:]


def _splice(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    other = rng.choice(others)
    return data[:_pos(data, rng)] + other[_pos(other, rng):]


def _reencode(data: bytes, rng: random.Random, others: list[bytes]) -> bytes:
    codec = rng.choice(("utf-16-le", "utf-16-be", "gb18030", "cp1251", "shift_jis", "utf-32"))
    return data.decode("utf-8", "replace").encode(codec, "replace")


_MUTATIONS: tuple[Callable[[bytes, random.Random, list[bytes]], bytes], ...] = (
    _flip, _insert, _insert, _cut, _repeat, _splice, _reencode,
)


# --- engines -------------------------------------------------------------------------------

def run_mutate(harness: Harness, seeds: list[bytes], seconds: float, rng: random.Random) -> None:
    """Every seed once, then random mutations of random seeds until the time is up."""
    deadline = time.monotonic() + seconds
    for data in seeds:
        if time.monotonic() > deadline:
            return
        harness(data)
    while time.monotonic() < deadline:
        harness(mutate(rng.choice(seeds), rng, seeds))


def run_atheris(harness: Harness, seeds: list[bytes], seconds: float, rng: random.Random, work: Path,
                done: Callable[[], None]) -> None:
    """libFuzzer through atheris, coverage on detourage's modules, seeds as its corpus.

    libFuzzer would end the process itself, skipping Python's exit handlers: when the time
    is up the harness calls ``done`` and leaves with the benchmark's exit status.
    """
    import os

    import atheris  # type: ignore[import-not-found]

    corpus = work / "corpus"
    corpus.mkdir(parents=True, exist_ok=True)
    for data in seeds:
        (corpus / hashlib.sha1(data).hexdigest()).write_bytes(data)

    def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
        if seed % 2:
            return atheris.Mutate(data, max_size)
        return mutate(data, random.Random(seed), seeds, max_size)

    deadline = time.monotonic() + seconds

    def test_one_input(data: bytes) -> None:
        harness(data)
        if time.monotonic() > deadline:
            done()
            sys.stdout.flush()
            os._exit(1 if harness.findings else 0)

    args = [sys.argv[0], str(corpus), f"-max_total_time={int(seconds) + 600}", "-timeout=120",
            "-rss_limit_mb=8192", f"-max_len={MAX_LEN}", f"-seed={rng.randrange(1, 1 << 30)}",
            f"-artifact_prefix={work}/", "-print_final_stats=1"]
    atheris.Setup(args, test_one_input, custom_mutator=custom_mutator)
    atheris.Fuzz()


def instrumented() -> bool:
    """Import detourage and every method under atheris' coverage, when atheris is here."""
    try:
        import atheris  # type: ignore[import-not-found]
    except ImportError:
        return False
    with atheris.instrument_imports(include=["detourage"]):
        import detourage  # noqa: F401
        from detourage import methods

        methods.available()  # imports every method module
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog=__doc__.split("\n\n", 1)[1])
    parser.add_argument("--target", choices=("road", "web"), default="road",
                        help="the whole road from bytes to output (road), or the crawler's parsers (web)")
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to fuzz (default: %(default)s)")
    parser.add_argument("--engine", choices=("auto", "atheris", "mutate"), default="auto",
                        help="atheris when installed (auto), else the plain mutation loop")
    parser.add_argument("--seeds", type=int, default=200, help="shared pages used as seeds (default: %(default)s)")
    parser.add_argument("--seed-bytes", type=int, default=16_384,
                        help="seed pages cut to this size (default: %(default)s)")
    parser.add_argument("--hang", type=float, default=10.0, help="CPU seconds after which an input is a hang")
    parser.add_argument("--random-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "detourage-fuzz",
                        help="folder for the inputs of each crash and hang (default: %(default)s)")
    _common.add_json(parser, "the report")
    args = parser.parse_args(argv)
    engine = args.engine
    has_atheris = instrumented() if engine in ("auto", "atheris") else False
    if engine == "atheris" and not has_atheris:
        parser.exit(2, "fuzz: atheris is not installed (pip install atheris), use --engine mutate\n")
    engine = "atheris" if has_atheris else "mutate"
    if args.target == "web":
        chosen, skipped, seeds = [], {"every method": "--target web fuzzes the crawler's parsers"}, web_seeds()
    else:
        chosen, skipped = fuzzed_methods()
        seeds = seed_pages(args.seeds, args.seed_bytes)
    harness = Harness(chosen, args.hang, out=args.out, target=web_input if args.target == "web" else None)
    rng = random.Random(args.random_seed)
    started = time.monotonic()

    def done() -> None:
        report(harness, engine, chosen, skipped, len(seeds), time.monotonic() - started, args.json)

    if engine == "atheris":
        run_atheris(harness, seeds, args.minutes * 60, rng, args.out / "atheris", done)
    run_mutate(harness, seeds, args.minutes * 60, rng)
    done()
    return 1 if harness.findings else 0


def report(harness: Harness, engine: str, chosen: list[str], skipped: dict[str, str], seeds: int,
           seconds: float, json_path: Path | None) -> None:
    crashes = [f for f in harness.findings.values() if f.kind == "crash"]
    hangs = [f for f in harness.findings.values() if f.kind == "hang"]
    print(f"# detourage fuzz ({engine})\n")
    print(f"Methods fuzzed ({len(chosen)}): {', '.join(chosen)}")
    for name, why in skipped.items():
        print(f"Skipped {name}: {why}")
    print(f"Seeds: {seeds} shared pages; formats: {', '.join(FORMATS)}")
    print(f"Executions: {harness.executions} in {seconds / 60:.1f} min "
          f"({harness.executions / max(seconds, 1e-9):.1f}/s)")
    print(f"Distinct crashes: {len(crashes)}; hangs: {sum(f.count for f in hangs)}")
    for finding in harness.findings.values():
        print(f"- {finding.kind} {finding.key} ×{finding.count}: {finding.message} "
              f"(input {finding.input_sha1[:12]}, {finding.input_len} bytes)")
    if json_path:
        json_path.write_text(json.dumps({
            "engine": engine, "methods": chosen, "skipped": skipped, "executions": harness.executions,
            "seconds": seconds, "findings": [vars(f) for f in harness.findings.values()],
        }, indent=1), encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
