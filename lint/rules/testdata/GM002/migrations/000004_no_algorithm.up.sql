ALTER TABLE t_inventory LOCK=NONE, ADD KEY ix_inventory (inventory); -- want "GM002 .*without an explicit ALGORITHM=:"
