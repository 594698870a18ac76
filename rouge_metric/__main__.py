"""``python -m rouge_metric``: the command line."""

import sys

from .cli import main

sys.exit(main())
