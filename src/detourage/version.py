"""The package's version, on the ground floor: the modules that name it (the web client's
``User-Agent``, WARC records, reports, ``--version``) read it here, below everything."""

__version__ = "0.1.0"
