-- Turn timers, computer seats due to move, rematches' settings, presence.
-- `turn_due`: unix ms by which the seat to act must have moved (a
-- person's timer), or after which a computer seat's move is overdue (its
-- server died first): what the sweeper looks for.
ALTER TABLE game_tables ADD COLUMN turn_due BIGINT;
CREATE INDEX tables_turn_due ON game_tables (turn_due);

-- A person's seat played by the computer since its time ran out, until
-- its person acts again.
ALTER TABLE seats ADD COLUMN auto BIGINT NOT NULL DEFAULT 0;

-- Streams held open, per server, table and seat (a watch link's: -1),
-- refreshed while held: a seat is connected while some server holds one.
CREATE TABLE presence (
    table_id TEXT NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat     BIGINT NOT NULL,
    server   TEXT NOT NULL,
    streams  BIGINT NOT NULL,
    seen_at  BIGINT NOT NULL,
    PRIMARY KEY (table_id, seat, server)
);
