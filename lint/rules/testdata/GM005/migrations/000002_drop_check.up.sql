ALTER TABLE t_stock DROP CONSTRAINT chk_stock_nonneg; -- want "GM005 this statement removes a guard of t_stock: counter t_stock.stock has no CHECK"
