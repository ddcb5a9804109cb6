DROP INDEX ix_inv ON t_inventory ALGORITHM=INPLACE; -- want "GM002 .*DROP INDEX t_inventory without an explicit LOCK="
