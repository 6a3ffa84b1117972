"""``python -m bench``: run the bench and print its tables."""

import sys

from bench.bench import main

sys.exit(main())
