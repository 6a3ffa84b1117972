"""Shared fixtures: an in-process HTTP client of the service."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette asks for httpx2, which its test client does not need yet
    from starlette.testclient import TestClient

from sevens_rules.api.app import create_app
from sevens_rules.api.limits import Settings


@pytest.fixture(scope="session")
def client() -> Iterator[TestClient]:
    """A test client of an app with default settings."""
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as test_client:
        yield test_client


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the image test first: it waits minutes on a build (longest on a machine without its cached
    base), so started first, under ``pytest -n 2`` it runs beside the rest rather than after it."""
    items.sort(key=lambda item: item.path.name != "test_image.py")
