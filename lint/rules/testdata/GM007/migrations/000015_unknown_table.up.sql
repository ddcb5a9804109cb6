-- A table the migrations never define: its previous types are unknown, so a
-- MODIFY is not judged, but a key or a CHECK needs the rows as surely.
ALTER TABLE t_legacy MODIFY COLUMN qty SMALLINT NOT NULL, ALGORITHM=COPY, LOCK=SHARED;
ALTER TABLE t_legacy ADD UNIQUE KEY uk_sn (sn), ALGORITHM=INPLACE, LOCK=NONE; -- want "GM007 ALTER TABLE t_legacy ADD UNIQUE uk_sn \\(sn\\)"
ALTER TABLE t_legacy ADD PRIMARY KEY (id, sn); -- want "GM007 .*ADD PRIMARY KEY \\(id, sn\\): .*rows with a NULL in \\(id, sn\\) fail it too.*counts the rows sharing a value of \\(`id`, `sn`\\) or holding a NULL in it and"
ALTER TABLE t_legacy MODIFY COLUMN code VARCHAR(20) NOT NULL UNIQUE, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*MODIFY COLUMN code varchar\\(20\\): rows sharing a value of \\(code\\)"
