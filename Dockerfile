# The ticketsmith image: worker, webhook app, codec server, tool server and emulators (one image).
FROM python:3.11-slim-bookworm

# git: workers clone and push ticket branches; the emulators serve git over HTTP.
# bubblewrap: the sandbox every workspace command (tests, environment set-up) runs in.
RUN apt-get update \
    && apt-get install -y --no-install-recommends git bubblewrap \
    && rm -rf /var/lib/apt/lists/*

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    TICKETSMITH_DATA_DIR=/tmp/ticketsmith

WORKDIR /app
COPY . .
# The otel extra lets TICKETSMITH_OTEL_ENDPOINT switch traces on. Projects' tests run in their
# own environments (built with uv, a dependency), never in this one.
RUN pip install ".[otel]" \
    && useradd --create-home --uid 10001 ticketsmith \
    && install -d -o ticketsmith /var/lib/emulators /var/lib/toolserver /var/lib/ticketsmith/payloads

USER ticketsmith
EXPOSE 8000 8081 8100 8200 9000
CMD ["python", "worker.py"]
