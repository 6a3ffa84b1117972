#!/usr/bin/env sh
# Regenerate the image's lock files from pyproject.toml, with hashes, for the image's Python (3.11, Linux):
#   requirements.lock        every runtime dependency, direct and transitive
#   requirements-build.lock  what builds the package's wheel (pyproject's [build-system] requires)
# The image installs them wheels only, except the packages the Dockerfile's --no-binary= names (PyPI has them
# only as source; the image builds them with the locked build tools), so the resolution takes the same
# options and picks no version that PyPI has only as source. (uv still pins a version's sdist hash beside
# its wheels'; pip with --only-binary never takes it.) tests/test_lock.py checks every pin against PyPI's
# files. Existing pins are kept where they still fit. Needs uv (pip install uv==0.13.9). Run from
# anywhere; commit both files.
set -eu
cd "$(dirname "$0")/.."
from_source=$(sed -n 's/.*--no-binary=\([^ ]*\).*/\1/p' Dockerfile)
common="--generate-hashes --python-version 3.11 --python-platform linux --no-header --index-url https://pypi.org/simple"
# shellcheck disable=SC2086
uv pip compile pyproject.toml $common --only-binary :all: --no-binary "$from_source" -o requirements.lock
# shellcheck disable=SC2086
python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))' \
    | uv pip compile - $common --only-binary :all: -o requirements-build.lock
