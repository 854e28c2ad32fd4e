"""detourage: keep the main content of web pages (title, headings, paragraphs, lists).

    >>> import detourage
    >>> detourage.extract(b"<html><body><h1>Hi</h1><p>Text.</p></body></html>", method="fulltext")
    'Hi\\nText.\\n'

``load`` decodes, parses and segments a page once; ``run`` labels its blocks with a
method or a chain ``a+b``; ``render`` writes txt, CleanEval, Markdown, HTML, JSON, XML or
CSV; ``document`` gives the main content with the page's ``Metadata`` (title, authors,
dates, site, URL, language, tags…); ``fetch`` gets a page from the web politely
(:mod:`detourage.web`).
"""

from .api import document, extract, load, run, with_models
from .decode import decode
from .errors import (
    DatasetError,
    DetourageError,
    LimitExceeded,
    MissingExtra,
    NotHTML,
    UnknownFormat,
    UnknownMethod,
    UnknownOption,
    UnknownTask,
    UnsupportedOption,
    WorkerCrashed,
)
from .metadata import Document, Metadata
from .model import Block, Decoded, Label, Labels, Page, Result, Unit
from .render import render
from .settings import Limits, RenderOptions, Settings
from .version import __version__ as __version__
from .web import fetch

__all__ = [
    "Block",
    "DatasetError",
    "Decoded",
    "DetourageError",
    "Document",
    "Label",
    "Labels",
    "Limits",
    "LimitExceeded",
    "Metadata",
    "MissingExtra",
    "NotHTML",
    "Page",
    "RenderOptions",
    "Result",
    "Settings",
    "Unit",
    "UnknownFormat",
    "UnknownMethod",
    "UnknownOption",
    "UnknownTask",
    "UnsupportedOption",
    "WorkerCrashed",
    "decode",
    "document",
    "extract",
    "fetch",
    "load",
    "render",
    "run",
    "with_models",
]
