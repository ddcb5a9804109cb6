-- guard plan: add UNIQUE (order_no) to t_order
-- Fixes GS005 business-key-not-unique.
-- Algorithm: INPLACE; blocks writes: no; rows: unknown (planned offline).
-- Note: built in place, writes continue; fails with 1062 if duplicates exist or are written during the build: remove them first (guard audit counts them).
-- guard:ignore GM007 guard migrate's preflight counts the rows that would make it fail and refuses before applying anything
ALTER TABLE `t_order` ADD UNIQUE INDEX `uk_t_order_order_no` (`order_no`), ALGORITHM=INPLACE, LOCK=NONE;
