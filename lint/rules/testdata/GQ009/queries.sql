-- A typo: reported at the statement; the message names the token the parser stopped at.
SELECT inventory FROM t_inventory WHERE id = ? FRO x; -- want "^GQ009 not checked: SQL does not parse at 2:48: syntax error near \"FRO x\"; the statement may use syntax guard does not know"

-- A multi-line statement: reported on its first line, the culprit two lines below.
UPDATE t_inventory -- want "^GQ009 not checked: SQL does not parse at 7:34: syntax error near \"RETURNING inventory\""
   SET inventory = inventory - ?
 WHERE id = ? AND inventory >= ? RETURNING inventory;

-- Valid statements are checked by the other rules.
UPDATE t_inventory SET inventory = inventory - ?, version = version + 1 WHERE id = ? AND inventory >= ?;
SELECT inventory FROM t_inventory WHERE id = ?;

-- guard:ignore GQ009 MariaDB sequence syntax, reviewed by hand
SELECT NEXTVAL(seq_order) FRM dual;
