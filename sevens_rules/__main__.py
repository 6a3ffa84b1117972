"""``python -m sevens_rules`` (or the ``sevens-rules`` console script): start the service."""

from __future__ import annotations

import os

import uvicorn


def main() -> None:
    """Serve ``sevens_rules.api.app:app`` on ``HOST``:``PORT`` (default 127.0.0.1:8000)."""
    uvicorn.run(
        "sevens_rules.api.app:app",
        host=os.environ.get("HOST", "127.0.0.1"),
        port=int(os.environ.get("PORT", "8000")),
    )


if __name__ == "__main__":
    main()
