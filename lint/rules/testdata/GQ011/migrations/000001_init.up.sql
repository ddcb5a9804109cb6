CREATE TABLE t_inventory (
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0,
  note VARCHAR(255) NULL,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT inventory_non_negative CHECK (inventory >= 0)
) ENGINE=InnoDB;
