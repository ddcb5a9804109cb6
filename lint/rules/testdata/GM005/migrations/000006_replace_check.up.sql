-- A CHECK replaced in the same statement still guards the counter.
ALTER TABLE t_wallet DROP CONSTRAINT chk_balance, ADD CONSTRAINT chk_balance_range CHECK (balance >= 0 AND balance < 1000000000);
-- A counter column added without a CHECK lacks a guard it never had: GS003's, not a removal.
ALTER TABLE t_wallet ADD COLUMN points INT NOT NULL DEFAULT 0, ALGORITHM=INSTANT;
