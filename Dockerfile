# syntax=docker/dockerfile:1
# The rules service image. Build from the repository root (see README, "Running in production"):
#   docker build --build-arg VERSION="$(python3 -c 'import sevens_rules; print(sevens_rules.__version__)')" \
#                --build-arg REVISION="$(git rev-parse HEAD)" -t sevens-rules .
# Dependencies come only from requirements.lock (every package of the tree, pinned and hashed; regenerate
# with deploy/lock.sh) and sit in their own layer, so a code change rebuilds and ships only the small code
# layer. The code is installed once, as a wheel, into the virtual environment; no source copy remains.
# For a byte-for-byte reproducible base, pass the base image by digest:
#   --build-arg PYTHON_IMAGE=python:3.11-slim-trixie@sha256:<digest>
ARG PYTHON_IMAGE=python:3.11-slim-trixie

FROM ${PYTHON_IMAGE} AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PATH=/opt/venv/bin:$PATH

# The dependency layer: the locked tree, wheels only, every file checked against its hash.
FROM base AS dependencies
COPY requirements.lock /tmp/requirements.lock
RUN python -m venv /opt/venv \
    && pip install --no-cache-dir --require-hashes --only-binary=:all: --no-deps -r /tmp/requirements.lock

# The package's wheel, built with the locked build tools, in a stage the image does not keep.
FROM base AS wheel
COPY requirements-build.lock /tmp/requirements-build.lock
RUN python -m venv /opt/build \
    && /opt/build/bin/pip install --no-cache-dir --require-hashes --only-binary=:all: -r /tmp/requirements-build.lock
WORKDIR /src
COPY pyproject.toml README.md ./
COPY api ./api
COPY engine ./engine
COPY schema ./schema
COPY sevens_rules ./sevens_rules
COPY docs ./docs
RUN /opt/build/bin/pip wheel --no-cache-dir --no-deps --no-build-isolation --wheel-dir /dist .

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
# The code layer: the wheel is mounted for the install only, so the code exists once, in site-packages.
RUN --mount=type=bind,from=wheel,source=/dist,target=/dist \
    pip install --no-cache-dir --no-deps --no-index /dist/*.whl
# Served on all interfaces inside the container; one worker per container (scale with replicas) unless
# WEB_CONCURRENCY says otherwise. RULES_COMMIT feeds GET /version.
# RULES_DATA_DIR: referee mode's embedded match store (SQLite), shared by the container's workers; mount
# a volume there to keep matches across restarts, or name a Redis in RULES_MATCH_STORE for several hosts.
ENV HOST=0.0.0.0 \
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
