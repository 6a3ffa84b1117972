"""sevens-rules: a stateless rules service for the sevens family of card games.

The repository's top folder is this package: installed, it is ``sevens_rules``, and its layers
``api/``, ``engine/``, ``schema/`` and ``conformance/`` are ``sevens_rules.api``, ``sevens_rules.engine``,
``sevens_rules.schema`` and ``sevens_rules.conformance`` (pyproject.toml's
``[tool.setuptools.package-dir]`` maps it; the rules pages in ``docs/rules/`` are ``sevens_rules.rules``).
The layers import each other relatively (``from ..schema.common import Phase`` in ``engine/``), so an
import names the same file in the repository as in the installation. The tests, the bench and the other
folders at the top are not part of it.
"""

__version__ = "0.5.0"
"""The one version number: the package's, and the OpenAPI document's ``info.version``."""
