CREATE TABLE t_inventory (
  id BIGINT NOT NULL PRIMARY KEY,
  tenant_id BIGINT NOT NULL,
  inventory INT NOT NULL DEFAULT 0,
  status VARCHAR(16) NOT NULL DEFAULT 'active',
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT inventory_non_negative CHECK (inventory >= 0)
) ENGINE=InnoDB;
