"""Other tools' APIs, mapped onto detourage, so that switching is an import line.

- :mod:`detourage.compat.trafilatura`: ``fetch_url``, ``extract``, ``bare_extraction``,
  ``extract_metadata``, ``extract_with_metadata`` and ``html2txt`` with trafilatura's
  arguments, meanings and return types.  An option that cannot be honoured raises
  :class:`~detourage.errors.UnsupportedOption` naming it; none is silently ignored.
"""
