# dvonn-bot in a container: docker build -t dvonn-bot . && docker run --env-file .env \
#   -v dvonn-data:/data -p 127.0.0.1:8080:8080 dvonn-bot   (or: docker compose up -d)
# The strongest level's compiled search, built where a C compiler is (the image has none).
FROM python:3.11-slim AS native
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY rules ./rules
COPY ai ./ai
RUN python -m ai.native.build --force

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DVONN_DATABASE=/data/dvonn.sqlite3 \
    DVONN_HTTP_HOST=0.0.0.0 \
    DVONN_HTTP_PORT=8080

WORKDIR /app
# FriBiDi, which Pillow's wheel loads at run time for its complex text layout (libraqm): without
# it, flags and joined emoji in names show as their parts and Arabic letters do not join.
RUN apt-get update && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*
# The running bot's dependencies, exactly as locked (requirements-run.lock: no dev tools).
COPY requirements-run.lock ./
RUN pip install --no-cache-dir --disable-pip-version-check --require-hashes -r requirements-run.lock
COPY pyproject.toml README.md ./
COPY rules ./rules
COPY render ./render
COPY ai ./ai
COPY --from=native /build/ai/native/_engine.so ./ai/native/
COPY bot ./bot
# The bot runs from /app (the working directory comes first on the path), whose files the
# running user cannot write: compiled once here, or every start compiles them all again.
RUN pip install --no-cache-dir --disable-pip-version-check --no-deps . \
    && python -m compileall -q rules render ai bot \
    && useradd --system --uid 10001 --home-dir /data --no-create-home dvonn \
    && mkdir -p /data && chown dvonn /data

USER dvonn
VOLUME ["/data"]
EXPOSE 8080
# 200 from /healthz: the gateway is connected, the database answers, the outbox keeps up.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8080/healthz', timeout=4)"]
# SIGTERM (docker stop) finishes the work in flight and closes the database.
STOPSIGNAL SIGTERM
CMD ["python", "-m", "bot"]
