ALTER TABLE t_stock MODIFY COLUMN stock INT NULL DEFAULT 0; -- want "GM005 this statement removes a guard of t_stock: counter t_stock.stock is NULLable"
