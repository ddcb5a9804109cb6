-- A script for the mysql client: its commands are no statements.
source /sql/schema.sql;
\. /sql/seed.sql
SELECT id FROM t_inventory WHERE id = 1;
-- A statement that does not parse is still said.
SELEC id FROM t_inventory; -- want "GQ009 not checked: SQL does not parse"
