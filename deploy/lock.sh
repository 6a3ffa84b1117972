#!/usr/bin/env sh
# Regenerate the image's lock files from pyproject.toml, with hashes, for the image's Python (3.11, Linux):
#   requirements.lock        every runtime dependency, direct and transitive
#   requirements-build.lock  what builds the package's wheel (pyproject's [build-system] requires)
# Needs uv (pip install uv==0.13.9). Run from anywhere; commit both files.
set -eu
cd "$(dirname "$0")/.."
common="--generate-hashes --python-version 3.11 --python-platform linux --no-header --index-url https://pypi.org/simple"
# shellcheck disable=SC2086
uv pip compile pyproject.toml $common -o requirements.lock
# shellcheck disable=SC2086
python3 -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))' \
    | uv pip compile - $common -o requirements-build.lock
