CREATE TABLE t_inventory (
  id BIGINT NOT NULL PRIMARY KEY,
  sku VARCHAR(64) NOT NULL,
  inventory INT NOT NULL DEFAULT 0,
  note VARCHAR(255) NULL,
  version BIGINT NOT NULL DEFAULT 0,
  UNIQUE KEY uk_sku (sku),
  CONSTRAINT inventory_non_negative CHECK (inventory >= 0)
) ENGINE=InnoDB;
