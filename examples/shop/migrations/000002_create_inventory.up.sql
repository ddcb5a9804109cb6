-- unsafe GS003 GS006: per-warehouse inventory relies on the Redis lock alone (no CHECK, no version).
CREATE TABLE t_inventory (
  id           BIGINT    NOT NULL AUTO_INCREMENT PRIMARY KEY,
  product_id   BIGINT    NOT NULL,
  warehouse_id INT       NOT NULL,
  inventory    INT       NOT NULL DEFAULT 0,
  updated_at   TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  UNIQUE KEY uk_inventory_product_warehouse (product_id, warehouse_id)
) ENGINE=InnoDB;
