ALTER TABLE t_inventory ADD KEY ix_sku_inv (sku, inventory), ALGORITHM=INPLACE, LOCK=NONE;
