# Build stage: compile the binary as it ships, the `dist` profile (whole-
# program inlining: the code docs/performance.md measures; protox compiles
# the protos, so no protoc is needed). With vendored crates in vendor/ (`cargo vendor`), the
# build is offline: it needs no registry.
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY . .
RUN if [ -d vendor ]; then \
        mkdir -p .cargo && \
        printf '[source.crates-io]\nreplace-with = "vendored"\n\n[source.vendored]\ndirectory = "vendor"\n' \
            > .cargo/config.toml && \
        cargo build --profile dist --locked --offline --bin pips; \
    else \
        cargo build --profile dist --locked --bin pips; \
    fi

# Runtime stage: just the binary, run as an unprivileged user.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin pips \
 && mkdir -p /var/lib/pips && chown pips /var/lib/pips
COPY --from=build /src/target/dist/pips /usr/local/bin/pips
USER pips
# The tables' SQLite file (PIPS_TABLES_DB's default, pips-tables.db in the
# folder the server runs in) lives on a volume, so that tables outlive the
# container; several replicas share tables on PostgreSQL instead.
WORKDIR /var/lib/pips
VOLUME /var/lib/pips
ENV PIPS_ADDR=0.0.0.0:50051 \
    PIPS_LOG_FORMAT=json \
    RUST_LOG=info
EXPOSE 50051 9464
# `pips healthcheck` probes PIPS_ADDR (0.0.0.0 reaches the local listener).
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["pips", "healthcheck"]
ENTRYPOINT ["pips"]
