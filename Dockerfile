# syntax=docker/dockerfile:1
# The rules service image. Build from the repository root (see README, "Running in production"):
#   docker build --build-arg VERSION="$(sed -n 's/^__version__ = "\(.*\)"$/\1/p' __init__.py)" \
#                --build-arg REVISION="$(git rev-parse HEAD)" -t sevens-rules .
# Dependencies come only from requirements.lock (every package of the tree, pinned and hashed; regenerate
# with deploy/lock.sh) and sit in their own layer, so a code change rebuilds and ships only the small code
# layer. The code is installed once, as a wheel, into the virtual environment; no source copy remains.
# With podman, add --format docker: the OCI format drops HEALTHCHECK (tests/test_image.py builds it so).
# For a byte-for-byte reproducible base, pass the base image by digest:
#   --build-arg PYTHON_IMAGE=python:3.11-slim-trixie@sha256:<digest>
# Any base whose python3 is Python 3.11 with its venv module works (the lock is resolved for 3.11).
ARG PYTHON_IMAGE=python:3.11-slim-trixie

FROM ${PYTHON_IMAGE} AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH

# The locked build tools (pyproject's [build-system] requires, from requirements-build.lock): they build the
# package's wheel and the wheels of the few locked dependencies that PyPI has only as source, in stages the
# image does not keep.
FROM base AS build-tools
COPY requirements-build.lock /tmp/requirements-build.lock
RUN python3 -m venv /opt/build \
    && /opt/build/bin/pip install --no-cache-dir --require-hashes --only-binary=:all: -r /tmp/requirements-build.lock

# The dependency layer: every locked dependency as a wheel, each downloaded file checked against its hash
# first (wheels only, except the packages named by --no-binary: PyPI has them only as source, so they are
# built from their hashed source with the locked build tools and no build isolation, and nothing unlocked
# is fetched), then installed offline into the virtual environment the image runs. The image takes only
# /opt/venv from this stage. tests/test_lock.py checks every file the lock pins against this command.
FROM build-tools AS dependencies
COPY requirements.lock /tmp/requirements.lock
RUN /opt/build/bin/pip wheel --no-cache-dir --require-hashes --no-deps --no-build-isolation \
        --only-binary=:all: --no-binary=openapi-ui-bundles --wheel-dir /tmp/wheels -r /tmp/requirements.lock \
    && python3 -m venv /opt/venv \
    && pip install --no-cache-dir --no-deps --no-index /tmp/wheels/*.whl \
    && rm -r /tmp/wheels

# The package's wheel, built with the locked build tools, in a stage the image does not keep. It copies the
# package's own files (the repository's top folder is the package sevens_rules) and the folders
# pyproject.toml's package-dir maps under it (docs/ for the rules pages), not build/ (an editable install's
# link tree, kept out of the context by .dockerignore).
FROM build-tools AS wheel
WORKDIR /src
COPY pyproject.toml README.md ./
COPY api ./api
COPY conformance ./conformance
COPY engine ./engine
COPY schema ./schema
COPY __init__.py __main__.py py.typed ./
COPY docs ./docs
RUN /opt/build/bin/pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /dist .

# The code, installed from its wheel under its own prefix (no source copy): the image lays it over the
# virtual environment as one small layer. A COPY, not a RUN that mounts the wheel stage: podman's builder
# cannot mount a stage it took from its cache.
FROM dependencies AS code
COPY --from=wheel /dist /tmp/dist
RUN pip install --no-cache-dir --no-deps --no-index --prefix=/opt/code /tmp/dist/*.whl

FROM base AS runtime
ARG PYTHON_IMAGE
ARG VERSION=""
ARG REVISION=""
LABEL org.opencontainers.image.title="sevens-rules" \
      org.opencontainers.image.description="A stateless rules service for the sevens family of card games (REST and GraphQL)." \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.base.name="${PYTHON_IMAGE}"
COPY --from=dependencies /opt/venv /opt/venv
# The code layer: the installed package and its console script, so the code exists once, in site-packages.
COPY --from=code /opt/code/ /opt/venv/
# Served on all interfaces inside the container; one worker per container (scale with replicas) unless
# WEB_CONCURRENCY says otherwise. RULES_COMMIT feeds GET /version.
# RULES_DATA_DIR: referee mode's embedded match store (SQLite), shared by the container's workers; mount
# a volume there to keep matches across restarts, or name a Redis in RULES_MATCH_STORE for several hosts.
# MALLOC_ARENA_MAX: the worker threads (GraphQL documents, bots, samples) would each grow a malloc arena of
# their own that is never given back (an outside probe: +156 MB under 40 connections, +58 MB with two)
ENV HOST=0.0.0.0 \
    MALLOC_ARENA_MAX=2 \
    PORT=8000 \
    RULES_COMMIT=${REVISION} \
    RULES_DATA_DIR=/var/lib/sevens-rules
RUN install -d -o 10001 -g 10001 -m 0700 /var/lib/sevens-rules
# A numeric user and group, so Kubernetes can verify runAsNonRoot without looking the name up.
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 CMD ["sevens-rules", "healthcheck"]
STOPSIGNAL SIGTERM
CMD ["sevens-rules"]
