-- A key on a column the statement adds: every row holds its default, which
-- the preflight cannot count before the column exists.
ALTER TABLE t_user ADD COLUMN invite VARCHAR(16) NULL, ADD UNIQUE KEY uk_invite (invite), ALGORITHM=INPLACE, LOCK=NONE;
