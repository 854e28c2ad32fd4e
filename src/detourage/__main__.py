"""``python -m detourage`` runs the command line."""

from .cli import main

main()
