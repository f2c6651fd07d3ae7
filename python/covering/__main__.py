"""``python -m covering`` is the ``covering`` command."""

import sys

from .cli import main

sys.exit(main())
