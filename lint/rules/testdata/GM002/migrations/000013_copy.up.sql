-- ALGORITHM=COPY, LOCK=SHARED is explicit: GM002 is satisfied (GM003 is not).
ALTER TABLE t_inventory ADD CONSTRAINT chk_inventory CHECK (inventory >= 0), ALGORITHM=COPY, LOCK=SHARED;
