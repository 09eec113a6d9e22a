# The ticketsmith image: worker, webhook app, codec server, tool server and emulators (one image).
FROM python:3.11-slim-bookworm

# git: workers clone and push ticket branches; the emulators serve git over HTTP.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TICKETSMITH_DATA_DIR=/tmp/ticketsmith

WORKDIR /app
COPY . .
# The otel extra lets TICKETSMITH_OTEL_ENDPOINT switch traces on; pytest runs projects' tests.
RUN pip install ".[otel]" pytest \
    && useradd --create-home --uid 10001 ticketsmith \
    && install -d -o ticketsmith /var/lib/emulators /var/lib/toolserver

USER ticketsmith
EXPOSE 8000 8081 8100 8200 9000
CMD ["python", "worker.py"]
