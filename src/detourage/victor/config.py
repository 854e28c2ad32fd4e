"""Victor's configuration: tag classes, discretisation, regular expressions, CRF templates.

The file format is Victor's (seed 003 §2.2): ``variable: value`` lines, a value being one
token or an array of whitespace-separated tokens, a repeated variable appending to its
array; ``#`` starts a comment.  Variables named ``regexp-*`` and ``bullet-patterns`` take
the whole rest of the line as one regular expression.  The shipped default is
``data/victor.conf``; every threshold there says what it maps.

A :class:`Config` is immutable and hashable by its text, so a model file carries the exact
configuration it was trained with (:mod:`detourage.victor.crf`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib import resources
from pathlib import Path

from ..errors import ConfigError

#: features computed by :mod:`detourage.victor.features` and how they are discretised
#: ("values": thresholds, "scale": ratio buckets, "flag": 0/1, "raw": small integer)
MARKUP_FEATURES = (
    "split.p", "split.br", "split.hr", "split.class-inline", "split.class-block",
    "div-group.word-ratio", "td-group.word-ratio", "position",
    "document.block-count", "document.max-div-group", "document.max-td-group",
)
CONTENT_FEATURES = (
    "char.count", "char.alpha-rel", "char.num-rel", "char.punct-rel", "char.white-rel",
    "char.other-rel", "token.alpha-rel", "token.num-rel", "token.mix-rel", "token.other-rel",
    "token.alpha-abs", "token.num-abs", "token.mix-abs", "token.other-abs",
    "sentence.count", "sentence.avg-length", "sentence.begin", "sentence.end",
    "first-duplicate", "duplicate-count", "regexp.url", "regexp.date", "regexp.time", "bullet",
    "document.word-count", "document.sentence-count",
)
EXTRA_FEATURES = ("link.density", "text.density", "stopword.density", "classid.noise", "classid.content")

#: named ablations: features switched off (seed 003 §6: Exp-2 drops the word-ratio and
#: numeric / mixed / non-word counts, Exp-3 also regexp.url and document.word-count;
#: content-only / markup-only keep one source of features)
ABLATIONS = {
    "none": (),
    "exp2": ("div-group.word-ratio", "td-group.word-ratio", "token.num-abs", "token.mix-abs",
             "token.other-abs"),
    "exp3": ("div-group.word-ratio", "td-group.word-ratio", "token.num-abs", "token.mix-abs",
             "token.other-abs", "regexp.url", "document.word-count"),
    "content-only": ("container.*", *MARKUP_FEATURES, "link.density", "text.density", "classid.*"),
    "markup-only": (*CONTENT_FEATURES, "stopword.density", "text.density"),
    #: seed 003's feature set exactly: every ``crf-extra`` feature of the configuration off
    #: (taken from the configuration by :func:`detourage.crossval.setting_config`)
    "seed": (),
}

_REGEX_VARIABLES = re.compile(r"regexp-[\w.-]+|bullet-patterns")
_LINE = re.compile(r"\s*([\w.-]+)\s*:\s?(.*)$")


@dataclass(frozen=True)
class FeatureTemplate:
    """Features (names or ``prefix*`` globs) taken at the given block offsets."""

    patterns: tuple[str, ...]
    offsets: tuple[int, ...]

    def matches(self, feature: str) -> bool:
        return any(feature == p or (p.endswith("*") and feature.startswith(p[:-1]))
                   for p in self.patterns)


@dataclass(frozen=True)
class Config:
    """A parsed configuration; :attr:`text` is the file it came from."""

    text: str
    variables: dict[str, tuple[str, ...]] = field(compare=False, hash=False, repr=False)
    #: features switched off on top of the file (an ablation, ``--without``)
    disabled: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash((self.text, self.disabled))

    # -- reading -----------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str, name: str = "<config>") -> Config:
        variables: dict[str, list[str]] = {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            m = _LINE.match(line)
            if not m:
                raise ConfigError(f"{name}:{number}: expected 'variable: value', got {line!r}")
            key, value = m.group(1), m.group(2).strip()
            if _REGEX_VARIABLES.fullmatch(key) and not key.endswith("-requires"):
                try:
                    re.compile(value)
                except re.error as exc:
                    raise ConfigError(f"{name}:{number}: bad regular expression: {exc}") from None
                variables.setdefault(key, []).append(value)
            else:
                variables.setdefault(key, []).extend(value.split())
        config = cls(text, {k: tuple(v) for k, v in variables.items()})
        config.check(name)
        return config

    @classmethod
    def load(cls, path: str | Path | None = None) -> Config:
        """The configuration at ``path``, or the shipped default."""
        if path is None:
            return default()
        path = Path(path)
        try:
            text = path.read_text("utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read configuration {path}: {exc.strerror}") from None
        return cls.parse(text, str(path))

    def check(self, name: str) -> None:
        """Every CRF feature is known and every discretised feature has its mapping."""
        known = set(self.computed)
        unknown = [f for f in (*self.get("crf-features"), *self.get("crf-extra")) if f not in known]
        if unknown:
            raise ConfigError(f"{name}: unknown features {', '.join(unknown)}")
        for feature in self.features:
            self.bins(feature)  # raises when the mapping is missing

    def get(self, key: str) -> tuple[str, ...]:
        return self.variables.get(key, ())

    def value(self, key: str, default: str) -> str:
        values = self.get(key)
        return values[-1] if values else default

    def without(self, *features: str) -> Config:
        """The same configuration with more features switched off (globs allowed)."""
        return replace(self, disabled=tuple(dict.fromkeys((*self.disabled, *features))))

    # -- derived -----------------------------------------------------------------------
    @cached_property
    def computed(self) -> tuple[str, ...]:
        """Every feature :mod:`.features` can compute under this configuration."""
        containers = [f"container.{t}" for t in self.get("container-tags")]
        containers += [f"container.{k[len('container-'):]}" for k in self.variables
                       if k.startswith("container-class-")]
        splits = [f"split.{t}" for t in self.get("split-tags")]
        splits += [f"split.{k[len('split-'):]}" for k in self.variables if k.startswith("split-class-")]
        fixed = [f for f in (*MARKUP_FEATURES, *CONTENT_FEATURES, *EXTRA_FEATURES)
                 if not f.startswith("split.")]
        return tuple(dict.fromkeys([*containers, *splits, *fixed]))

    @cached_property
    def features(self) -> tuple[str, ...]:
        """The features the CRF sees, in column order (``crf-features`` [+ ``crf-extra``])."""
        names = list(self.get("crf-features"))
        if self.value("use-extra", "no") == "yes":
            names += self.get("crf-extra")
        off = FeatureTemplate(self.disabled, (0,))
        return tuple(f for f in dict.fromkeys(names) if not off.matches(f))

    @cached_property
    def templates(self) -> tuple[FeatureTemplate, ...]:
        out = []
        for line in _template_lines(self.text):
            tokens = line.split()
            offsets = tuple(int(t) for t in tokens if re.fullmatch(r"[+-]?\d+", t))
            patterns = tuple(t for t in tokens if not re.fullmatch(r"[+-]?\d+", t))
            if not offsets or not patterns:
                raise ConfigError(f"crf-template needs features and offsets: {line!r}")
            out.append(FeatureTemplate(patterns, offsets))
        return tuple(out) or (FeatureTemplate(("*",), (0,)),)

    def bins(self, feature: str) -> tuple[str, tuple[float, ...] | int]:
        """How ``feature`` is discretised: ``("values", thresholds)``, ``("scale", n)`` or
        ``("flag", 0)``."""
        values = self.get(f"feature-{feature}-values")
        if values:
            return "values", tuple(float(v) for v in values)
        scale = self.get(f"feature-{feature}-scale")
        if scale:
            return "scale", int(scale[-1])
        if feature.startswith(("container.", "classid.")) or feature in _FLAGS:
            return "flag", 0
        if feature.startswith("regexp.") or feature == "bullet":
            return "raw", 0
        raise ConfigError(f"feature {feature!r} has neither feature-{feature}-values nor -scale")

    @cached_property
    def crf_parameters(self) -> dict[str, float | int]:
        return {"c1": float(self.value("crf-c1", "0.05")), "c2": float(self.value("crf-c2", "0.01")),
                "max_iterations": int(self.value("crf-max-iterations", "200"))}


_FLAGS = frozenset({"sentence.begin", "sentence.end", "first-duplicate"})


def _template_lines(text: str) -> list[str]:
    out = []
    for line in text.splitlines():
        m = _LINE.match(line)
        if m and m.group(1) == "crf-template" and not line.lstrip().startswith("#"):
            out.append(m.group(2))
    return out


_DEFAULT: Config | None = None


def default() -> Config:
    """The shipped ``data/victor.conf``."""
    global _DEFAULT
    if _DEFAULT is None:
        text = resources.files("detourage").joinpath("data", "victor.conf").read_text("utf-8")
        _DEFAULT = Config.parse(text, "victor.conf")
    return _DEFAULT
