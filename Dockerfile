# A small image that runs the rules service as a non-root user, with the README's start command.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md ./
COPY api ./api
COPY engine ./engine
COPY schema ./schema
COPY sevens_rules ./sevens_rules
COPY docs ./docs
RUN pip install . && useradd --system --uid 10001 --no-create-home rules

USER rules
EXPOSE 8000
# Same command as the README's quick start, listening on all interfaces inside the container.
ENV HOST=0.0.0.0 PORT=8000
CMD ["sevens-rules"]
