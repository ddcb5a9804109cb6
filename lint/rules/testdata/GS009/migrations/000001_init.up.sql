-- No key at all.
CREATE TABLE t_inventory ( -- want "GS009 .*t_inventory has no primary key"
  sku VARCHAR(64) NOT NULL,
  inventory INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- A UNIQUE NOT NULL key is not a declared primary key.
CREATE TABLE t_stock ( -- want "GS009 .*t_stock has no primary key"
  sku VARCHAR(64) NOT NULL,
  stock INT NOT NULL DEFAULT 0,
  UNIQUE KEY uk_sku (sku)
) ENGINE=InnoDB;

-- Column-level, table-level and composite primary keys are fine.
CREATE TABLE t_seat (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

CREATE TABLE t_wallet (
  id BIGINT NOT NULL,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

CREATE TABLE t_bin_stock (
  warehouse_id BIGINT NOT NULL,
  sku VARCHAR(64) NOT NULL,
  stock INT NOT NULL DEFAULT 0,
  CONSTRAINT pk_bin PRIMARY KEY (warehouse_id, sku)
) ENGINE=InnoDB;

-- The primary key arrives in a later migration.
CREATE TABLE t_points (
  member_id BIGINT NOT NULL,
  points INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- Dropped by a later migration.
CREATE TABLE t_coupon ( -- want "GS009 .*t_coupon has no primary key"
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;
