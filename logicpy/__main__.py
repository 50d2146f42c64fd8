"""`python -m logicpy` runs the `logicpy` command."""

import sys

from .cli import main

sys.exit(main())
