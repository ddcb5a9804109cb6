ALTER TABLE t_inventory ADD CHECK (price < 1000000); -- want "GM003 .*ADD CHECK validates every row \\(ALGORITHM=COPY\\)$"
