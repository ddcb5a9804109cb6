-- A counter without the version column.
CREATE TABLE t_inventory ( -- want "GS006 .*t_inventory has counter or state columns \\(inventory\\) but no version column"
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_inventory CHECK (inventory >= 0)
) ENGINE=InnoDB;

-- A state machine without the version column.
CREATE TABLE t_order ( -- want "GS006 .*t_order has counter or state columns \\(status\\)"
  id BIGINT NOT NULL PRIMARY KEY,
  status VARCHAR(16) NOT NULL DEFAULT 'new'
) ENGINE=InnoDB;

-- Counter and state with a version column: fine.
CREATE TABLE t_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  state VARCHAR(16) NOT NULL DEFAULT 'on',
  version BIGINT UNSIGNED NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock CHECK (stock >= 0)
) ENGINE=InnoDB;

-- Nothing to guard, no version needed.
CREATE TABLE t_category (
  id BIGINT NOT NULL PRIMARY KEY,
  title VARCHAR(100) NOT NULL DEFAULT ''
) ENGINE=InnoDB;

-- The version column arrives in a later migration.
CREATE TABLE t_wallet (
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0,
  CONSTRAINT chk_balance CHECK (balance >= 0)
) ENGINE=InnoDB;

-- policies.toml: versioned = true requires it even without counters.
CREATE TABLE t_profile ( -- want "GS006 .*policy marks t_profile versioned but it has no version column"
  id BIGINT NOT NULL PRIMARY KEY,
  nickname VARCHAR(64) NOT NULL DEFAULT ''
) ENGINE=InnoDB;

-- policies.toml: versioned = false exempts a counter table.
CREATE TABLE t_legacy_points (
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_points CHECK (points >= 0)
) ENGINE=InnoDB;
