-- A table-level CHECK declared NOT ENFORCED guards nothing.
CREATE TABLE t_stock_off ( -- want "GS002 .*CHECK chk_stock_off .* on t_stock_off is NOT ENFORCED"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock_off CHECK (stock >= 0) NOT ENFORCED
) ENGINE=InnoDB;

-- An enforced CHECK is what guard asks for.
CREATE TABLE t_stock_on (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock_on CHECK (stock >= 0)
) ENGINE=InnoDB;

-- A column-level CHECK can be NOT ENFORCED too.
CREATE TABLE t_points_off ( -- want "GS002 .*NOT ENFORCED"
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0 CHECK (points >= 0) NOT ENFORCED,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- Two unenforced checks on one table make one finding naming both.
CREATE TABLE t_wallet ( -- want "GS002 .*CHECK chk_balance .*, CHECK chk_frozen .* are NOT ENFORCED"
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0,
  frozen DECIMAL(12,2) NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_balance CHECK (balance >= 0) NOT ENFORCED,
  CONSTRAINT chk_frozen CHECK (frozen <= balance) NOT ENFORCED
) ENGINE=InnoDB;

-- A table without checks has nothing to enforce.
CREATE TABLE t_audit_log (
  id BIGINT NOT NULL PRIMARY KEY,
  note VARCHAR(255) NOT NULL DEFAULT ''
) ENGINE=InnoDB;

-- A CHECK added NOT ENFORCED by a later migration is reported on the table.
CREATE TABLE t_quota ( -- want "GS002 .*CHECK chk_quota .* NOT ENFORCED"
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- A CHECK created NOT ENFORCED and later switched on is enforced.
CREATE TABLE t_counter_fixed (
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_fixed CHECK (inventory >= 0) NOT ENFORCED
) ENGINE=InnoDB;
