-- Tables in public. Play keeps a table: `played_at` is its last move by a
-- person, its creation or its rematch, and expiry counts from it (opening
-- a link or watching no longer keeps a table). Each table keeps the
-- client that created it at three widths (its address, IPv6 /64; its
-- network, IPv4 /24 or IPv6 /48; its block, IPv4 /16 or IPv6 /32), for
-- the fair shares of the cap on tables; they go with the table.
ALTER TABLE game_tables ADD COLUMN played_at BIGINT NOT NULL DEFAULT 0;
UPDATE game_tables SET played_at = touched_at;
DROP INDEX tables_touched;
ALTER TABLE game_tables DROP COLUMN touched_at;
CREATE INDEX tables_played ON game_tables (played_at);
ALTER TABLE game_tables ADD COLUMN creator_address TEXT;
ALTER TABLE game_tables ADD COLUMN creator_network TEXT;
ALTER TABLE game_tables ADD COLUMN creator_block TEXT;
CREATE INDEX tables_creator_address ON game_tables (creator_address, played_at);
CREATE INDEX tables_creator_network ON game_tables (creator_network, creator_address);
CREATE INDEX tables_creator_block ON game_tables (creator_block, creator_network);
-- How many tables are kept, for the cap: counted once here, then kept by
-- every statement that creates or deletes a table (a count of every row
-- at each creation grew with the tables).
CREATE TABLE table_count (kept BIGINT NOT NULL);
INSERT INTO table_count (kept) SELECT COUNT(*) FROM game_tables;
-- The state before a table's last move (its events are played again on it
-- for the seats' updates), kept on the table rather than with every move:
-- a move's row is then a few dozen bytes.
ALTER TABLE game_tables ADD COLUMN previous_state BYTEA;
UPDATE game_tables SET previous_state = (SELECT m.before FROM moves m
    WHERE m.table_id = game_tables.id AND m.match_no = game_tables.match_no
    ORDER BY m.number DESC LIMIT 1);
ALTER TABLE moves DROP COLUMN before;
