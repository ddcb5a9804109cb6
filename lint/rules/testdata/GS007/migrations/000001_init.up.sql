-- NULLable version: CAS never matches NULL.
CREATE TABLE t_inventory ( -- want "GS007 .*version column t_inventory.version is NULLable$"
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0,
  version BIGINT NULL DEFAULT 0
) ENGINE=InnoDB;

-- A string version.
CREATE TABLE t_order ( -- want "GS007 .*version column t_order.version is not an integer type \\(varchar\\)$"
  id BIGINT NOT NULL PRIMARY KEY,
  status VARCHAR(16) NOT NULL DEFAULT 'new',
  version VARCHAR(32) NOT NULL DEFAULT '0'
) ENGINE=InnoDB;

-- No default.
CREATE TABLE t_stock ( -- want "GS007 .*version column t_stock.version has no default$"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  version INT NOT NULL
) ENGINE=InnoDB;

-- Everything wrong at once, said in one finding.
CREATE TABLE t_wallet ( -- want "GS007 .*version column t_wallet.version is NULLable, is not an integer type \\(datetime\\) and has no default"
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0,
  version DATETIME
) ENGINE=InnoDB;

-- The shape guard wants, and a smaller integer type that is still fine.
CREATE TABLE t_seat (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0,
  version BIGINT UNSIGNED NOT NULL DEFAULT 0
) ENGINE=InnoDB;

CREATE TABLE t_coupon (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0,
  version INT NOT NULL DEFAULT 1
) ENGINE=InnoDB;

-- A table without a version column is GS006's business, not GS007's.
CREATE TABLE t_points (
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- Repaired by a later migration.
CREATE TABLE t_ticket (
  id BIGINT NOT NULL PRIMARY KEY,
  status VARCHAR(16) NOT NULL DEFAULT 'open',
  version INT NULL
) ENGINE=InnoDB;
