"""sevens-rules: a stateless rules service for the sevens family of card games.

The repository keeps its layers at the top (``api/``, ``engine/``, ``schema/``); installed, they live
under this one namespace (``sevens_rules.api``, ``sevens_rules.engine``, ``sevens_rules.schema``) so
they never collide with other distributions' top-level modules.
"""

__version__ = "0.5.0"
"""The one version number: the package's, and the OpenAPI document's ``info.version``."""
