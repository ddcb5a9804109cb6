-- A count only ever set from a form: nothing decrements it.
CREATE TABLE t_shelf (
  id       BIGINT NOT NULL PRIMARY KEY,
  quantity INT    NOT NULL DEFAULT 0,
  CONSTRAINT chk_shelf_quantity CHECK (quantity >= 0)
) ENGINE=InnoDB;
