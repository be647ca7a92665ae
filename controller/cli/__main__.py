"""`python -m controller.cli`: the `burncycle-table` command, for a checkout without the installed script."""

import sys

from controller.cli import main

sys.exit(main())
