CREATE UNIQUE INDEX ux_referrer ON t_user (referrer) ALGORITHM=INPLACE LOCK=NONE; -- want "GM007 CREATE UNIQUE INDEX ux_referrer ON t_user: rows sharing a value of \\(referrer\\) fail it"
-- A plain index needs nothing of the rows.
CREATE INDEX ix_level ON t_user (level) ALGORITHM=INPLACE LOCK=NONE;
