-- Three DDL statements: reported once, on the second, with the count.
CREATE TABLE t_inventory (
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

CREATE TABLE t_order ( -- want "GM001 .*migration holds 3 DDL statements"
  id BIGINT NOT NULL PRIMARY KEY,
  order_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

CREATE INDEX ix_order_no ON t_order (order_no);
