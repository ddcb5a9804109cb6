-- An upgrade script: the UPDATE fills the column the ALTER adds, on every
-- row by design.
ALTER TABLE t_pay_order ADD COLUMN fee_rate DECIMAL(20,6) NOT NULL DEFAULT 0;
UPDATE t_pay_order SET fee_rate = 0;
-- Clearing a column before its type changes is the same kind of step.
UPDATE t_pay_order SET leader = NULL;
ALTER TABLE t_pay_order MODIFY COLUMN leader BIGINT NULL;
-- A column the script does not change is written on every row by mistake.
UPDATE t_pay_order SET status = 'CLOSED'; -- want "^GQ001 UPDATE has no WHERE: it writes every row of t_pay_order"
UPDATE t_pay_order SET fee_rate = 0, status = 'CLOSED'; -- want "^GQ001 UPDATE has no WHERE"
-- Another table is not part of the change.
UPDATE t_refund SET fee_rate = 0; -- want "^GQ001 UPDATE has no WHERE: it writes every row of t_refund"
-- Nor is a DELETE.
DELETE FROM t_pay_order; -- want "^GQ001 DELETE has no WHERE"
