# stikis: both bots and the command line in one small image.
#   docker build -t stikis .
#   docker run -e TELEGRAM_BOT_TOKEN=... -v stikis:/var/lib/stikis stikis
#   docker run -e DISCORD_TOKEN=... -v stikis:/var/lib/stikis --entrypoint stikis-discord stikis
# The default database is SQLite in the volume; give DATABASE_URL=postgres://... for
# PostgreSQL (compose.yaml runs one beside the bots).

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p stikis-telegram -p stikis-discord -p stikis \
    && strip target/release/stikis-telegram target/release/stikis-discord target/release/stikis

FROM debian:bookworm-slim
# CA roots for rustls' connections to Telegram and Discord; nothing else is needed.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/stikis --create-home stikis
COPY --from=build /src/target/release/stikis-telegram /src/target/release/stikis-discord \
     /src/target/release/stikis /usr/local/bin/
USER stikis
WORKDIR /var/lib/stikis
VOLUME /var/lib/stikis
ENV DATABASE_URL=/var/lib/stikis/stikis.db \
    STIKIS_METRICS_LISTEN=0.0.0.0:9187
EXPOSE 9187
# SIGTERM (docker stop) lets the updates in hand finish and sends what is held back; give it
# 30 s (compose.yaml's stop_grace_period; docker stop -t 30).
STOPSIGNAL SIGTERM
# Healthy while /healthz answers 200 (the database answers and the platform is connected), on
# the port of STIKIS_METRICS_LISTEN, at 127.0.0.1 (so that address must be 0.0.0.0 or
# 127.0.0.1). Bash's /dev/tcp speaks the HTTP: the image needs no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
    CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${STIKIS_METRICS_LISTEN##*:} && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && read -r -t 4 status <&3 && [[ $status == *' 200 '* ]]"]
ENTRYPOINT ["stikis-telegram"]
