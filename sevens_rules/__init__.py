"""sevens-rules: a stateless rules service for the sevens family of card games.

The repository keeps its layers at the top (``api/``, ``engine/``, ``schema/``); installed, they live
under this one namespace (``sevens_rules.api``, ``sevens_rules.engine``, ``sevens_rules.schema``) so
they never collide with other distributions' top-level modules. pyproject.toml maps each package to
its folder (``[tool.setuptools.package-dir]``); this folder holds only the namespace's own files.
"""

from pkgutil import extend_path

# Run from the repository's root (``python -m sevens_rules.api.export``, pytest), Python finds this folder
# first, and it holds none of the layers: the package also spans every other ``sevens_rules`` folder on the
# path, here the installed one (the editable install's link tree, or site-packages), where the layers are.
__path__ = extend_path(__path__, __name__)

__version__ = "0.5.0"
"""The one version number: the package's, and the OpenAPI document's ``info.version``."""
