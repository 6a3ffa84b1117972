"""``python -m sevens_rules`` (or the ``sevens-rules`` console script): start the service."""

from __future__ import annotations

import uvicorn

from sevens_rules.api.limits import Settings, SettingsError
from sevens_rules.api.server import uvicorn_options


def main() -> None:
    """Serve ``sevens_rules.api.app:app`` on ``HOST``:``PORT`` (default 127.0.0.1:8000).

    A bad environment variable stops it with one line naming the variable and what it accepts.
    """
    try:
        settings = Settings.from_env()
    except SettingsError as error:
        raise SystemExit(f"sevens-rules: {error}") from None
    uvicorn.run("sevens_rules.api.app:app", **uvicorn_options(settings))


if __name__ == "__main__":
    main()
