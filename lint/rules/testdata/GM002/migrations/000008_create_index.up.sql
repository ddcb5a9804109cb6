CREATE INDEX ix_inv ON t_inventory (inventory); -- want "GM002 .*CREATE INDEX t_inventory without an explicit ALGORITHM= and LOCK="
