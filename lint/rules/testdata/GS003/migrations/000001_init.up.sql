-- A counter with no CHECK at all.
CREATE TABLE t_inventory ( -- want "GS003 .*counter t_inventory.inventory has no CHECK \\(inventory >= 0\\): nothing"
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- An enforced table-level CHECK guards the counter.
CREATE TABLE t_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock CHECK (stock >= 0)
) ENGINE=InnoDB;

-- So does a column-level CHECK, and the reversed form 0 <= balance.
CREATE TABLE t_account (
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0 CHECK (points >= 0),
  balance DECIMAL(12,2) NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_balance CHECK (0 <= balance)
) ENGINE=InnoDB;

-- UNSIGNED without CHECK: a warning that says why.
CREATE TABLE t_seat ( -- want "GS003 .*counter t_seat.quantity has no CHECK .*UNSIGNED"
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT UNSIGNED NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- A NOT ENFORCED CHECK does not count.
CREATE TABLE t_coupon ( -- want "GS003 .*counter t_coupon.quantity has only a NOT ENFORCED CHECK"
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_coupon CHECK (quantity >= 0) NOT ENFORCED
) ENGINE=InnoDB;

-- The *_stock glob: frozen_stock is a counter, its neighbour is guarded.
CREATE TABLE t_warehouse ( -- want "GS003 .*t_warehouse.frozen_stock"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  frozen_stock INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_wh_stock CHECK (stock >= 0)
) ENGINE=InnoDB;

-- A CHECK on another column, or one that does not prove >= 0, is no guard.
CREATE TABLE t_bin ( -- want "GS003 .*counter t_bin.inventory has no CHECK"
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0,
  capacity INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_capacity CHECK (capacity >= 0),
  CONSTRAINT chk_inv_max CHECK (inventory <= 100000)
) ENGINE=InnoDB;

-- The CHECK arrives in a later migration: guarded.
CREATE TABLE t_reserve (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- Columns that are not counters need no CHECK.
CREATE TABLE t_product (
  id BIGINT NOT NULL PRIMARY KEY,
  price DECIMAL(12,2) NOT NULL DEFAULT 0,
  title VARCHAR(100) NOT NULL DEFAULT ''
) ENGINE=InnoDB;

-- policies.toml: counters = [] turns the heuristic off for t_ledger.
CREATE TABLE t_ledger (
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- policies.toml: counters = ["credit"] names a counter the heuristic misses.
CREATE TABLE t_credit ( -- want "GS003 .*counter t_credit.credit has no CHECK"
  id BIGINT NOT NULL PRIMARY KEY,
  credit INT NOT NULL DEFAULT 0,
  stock INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;
