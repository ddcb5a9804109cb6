-- A counter declared NULL explicitly.
CREATE TABLE t_inventory ( -- want "GS004 .*counter t_inventory.inventory is NULLable"
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_inventory CHECK (inventory >= 0)
) ENGINE=InnoDB;

-- A counter NULLable by omission (no NOT NULL), even with a default.
CREATE TABLE t_member ( -- want "GS004 .*counter t_member.points is NULLable"
  id BIGINT NOT NULL PRIMARY KEY,
  points INT DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- NOT NULL counters are fine; NULLable columns that are not counters too.
CREATE TABLE t_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  note VARCHAR(100) NULL,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- Two NULLable counters in one table: one finding each.
CREATE TABLE t_wallet ( -- want "GS004 .*t_wallet.balance" "GS004 .*t_wallet.quantity"
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2),
  quantity INT NULL,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- NULLable at first, made NOT NULL by a later migration.
CREATE TABLE t_seat (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NULL,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;
