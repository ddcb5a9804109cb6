ALTER TABLE t_stock DROP COLUMN version; -- want "GM005 this statement removes a guard of t_stock: t_stock has counter or state columns .* but no version column"
