-- A NOT ENFORCED check validates nothing (GS002 says what that is worth).
ALTER TABLE t_inventory ADD CONSTRAINT chk_note CHECK (note <> '') NOT ENFORCED, ALGORITHM=INPLACE, LOCK=NONE;
