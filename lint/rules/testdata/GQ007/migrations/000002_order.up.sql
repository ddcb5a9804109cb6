CREATE TABLE t_order (
  id BIGINT NOT NULL PRIMARY KEY,
  order_no VARCHAR(64) NOT NULL,
  inventory_id BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL DEFAULT 'new',
  version BIGINT NOT NULL DEFAULT 0,
  UNIQUE KEY uk_order_no (order_no)
) ENGINE=InnoDB;
