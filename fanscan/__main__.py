"""``python -m fanscan`` runs the command line."""

import sys

from fanscan.cli import main

sys.exit(main())
