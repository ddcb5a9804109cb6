-- Renamed column and table keep their known types.
RENAME TABLE t_inventory TO t_stock;
