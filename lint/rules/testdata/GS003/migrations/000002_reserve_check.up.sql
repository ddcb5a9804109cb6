ALTER TABLE t_reserve ADD CONSTRAINT chk_reserve CHECK (quantity >= 0), ALGORITHM=COPY;
