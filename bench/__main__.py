"""``python -m bench``: run the bench and print its tables."""

import sys

if sys.argv[1:2] == ["bots"]:  # python -m bench bots: the bot tournaments (bench/bots.py)
    from bench.bots import main as bots_main

    sys.exit(bots_main(sys.argv[2:]))

from bench.bench import main

sys.exit(main())
