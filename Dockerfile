# Build stage: compile the release binary (protox compiles the protos, so no
# protoc is needed).
FROM rust:1-slim-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock build.rs ./
COPY proto ./proto
COPY src ./src
COPY web ./web
COPY benches ./benches
RUN cargo build --release --locked --bin pips

# Runtime stage: just the binary, run as an unprivileged user.
FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin pips
COPY --from=build /src/target/release/pips /usr/local/bin/pips
USER pips
ENV PIPS_ADDR=0.0.0.0:50051 \
    PIPS_LOG_FORMAT=json \
    RUST_LOG=info
EXPOSE 50051
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["pips", "healthcheck", "--addr", "127.0.0.1:50051"]
ENTRYPOINT ["pips"]
