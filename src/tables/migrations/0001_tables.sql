-- Tables by link: a table (its match's state), its seats (people by the
-- hash of their link, computer players by level) and its moves.
-- One schema for SQLite and PostgreSQL: bytes are BYTEA, which SQLite
-- keeps as written (its numeric affinity leaves a blob a blob).
CREATE TABLE game_tables (
    id          TEXT PRIMARY KEY,
    created_at  BIGINT NOT NULL,
    touched_at  BIGINT NOT NULL,
    version     BIGINT NOT NULL,
    match_no    BIGINT NOT NULL,
    state       BYTEA NOT NULL,
    first_state BYTEA NOT NULL,
    settings    TEXT NOT NULL
);
CREATE INDEX tables_touched ON game_tables (touched_at);

CREATE TABLE seats (
    table_id  TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat      BIGINT NOT NULL,
    kind      TEXT NOT NULL,
    level     TEXT,
    link_hash BYTEA,
    PRIMARY KEY (table_id, seat)
);
CREATE UNIQUE INDEX seats_link ON seats (link_hash);

CREATE TABLE moves (
    table_id TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    match_no BIGINT NOT NULL,
    number   BIGINT NOT NULL,
    seat     BIGINT NOT NULL,
    move     BYTEA NOT NULL,
    before   BYTEA NOT NULL,
    by_whom  TEXT NOT NULL,
    at       BIGINT NOT NULL,
    PRIMARY KEY (table_id, match_no, number)
);
