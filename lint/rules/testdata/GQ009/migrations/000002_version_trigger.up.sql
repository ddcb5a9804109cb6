-- Triggers are outside the syntax guard reads: the statement is reported, not skipped.
CREATE TRIGGER t_inventory_bump BEFORE UPDATE ON t_inventory FOR EACH ROW SET NEW.version = OLD.version + 1; -- want "^GQ009 not checked: SQL does not parse at 2:8: syntax error near \"TRIGGER t_inventory_bump "
