-- Runs at every start (spring.sql.init.mode=always) on a database that may hold earlier runs: every statement is
-- idempotent. The transaction-log table of the Wharf starter (wharf_tx_log) is created by the starter itself.

CREATE TABLE IF NOT EXISTS sample_run (
    id         INT PRIMARY KEY,
    started_at TIMESTAMP NOT NULL
);
-- digits of the order's number in the order ids of the run: 3 (run 2's order 7 is #2007) unless the run or one
-- before it placed more than 999 orders; never fewer than the run before, so that ids of two runs cannot collide
ALTER TABLE sample_run ADD COLUMN IF NOT EXISTS seq_digits INT DEFAULT 3 NOT NULL;

-- id = run * 10^seq_digits + seq, so that "#2007" reads as "run 2, order 7" (and "#300007" after a run of 10,000)
CREATE TABLE IF NOT EXISTS orders (
    id                  BIGINT PRIMARY KEY,
    run                 INT NOT NULL,
    seq                 INT NOT NULL,
    item                VARCHAR(40) NOT NULL,
    quantity            INT NOT NULL,
    amount_cents        BIGINT NOT NULL,
    status              VARCHAR(20) NOT NULL,
    placed_at           TIMESTAMP NOT NULL,
    -- set in the order's own transaction by the crash switch, whose JVM dies right after that transaction commits
    killed_after_commit BOOLEAN DEFAULT FALSE NOT NULL,
    -- the run that received the OrderCreated message of an order whose JVM was killed after its commit
    recovered_in_run    INT,
    settled_in_run      INT
);
CREATE INDEX IF NOT EXISTS orders_by_run ON orders (run);

CREATE TABLE IF NOT EXISTS stock (
    item      VARCHAR(40) PRIMARY KEY,
    available INT NOT NULL,
    reserved  INT NOT NULL,
    sold      INT NOT NULL
);

INSERT INTO stock (item, available, reserved, sold)
    SELECT 'kettle', 100000, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM stock WHERE item = 'kettle');
INSERT INTO stock (item, available, reserved, sold)
    SELECT 'teapot', 100000, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM stock WHERE item = 'teapot');
INSERT INTO stock (item, available, reserved, sold)
    SELECT 'mug', 100000, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM stock WHERE item = 'mug');
