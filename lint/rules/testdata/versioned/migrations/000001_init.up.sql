-- GS006 by writes: with the code in view, only a table some write needs a
-- version column for is reported, and the finding names that write.

-- Written back with a value the code computed: needs the version.
CREATE TABLE t_stock_rmw ( -- want "GS006 t_stock_rmw has counter or state columns [(]stock[)] but no version column .*the write at .*queries.sql:4 needs it: it sets stock to a value the code computed, not relative to itself"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock_rmw CHECK (stock >= 0)
) ENGINE=InnoDB;

-- Safe twin: only written relative to itself, the decrement guarded.
CREATE TABLE t_stock_rel (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock_rel CHECK (stock >= 0)
) ENGINE=InnoDB;

-- Safe twin: each transition compares the state it leaves.
CREATE TABLE t_order_cas (
  id BIGINT NOT NULL PRIMARY KEY,
  status TINYINT NOT NULL DEFAULT 0 COMMENT '0 new, 1 paid, 2 shipped'
) ENGINE=InnoDB;

-- A constant written blind where another statement moves the state too.
CREATE TABLE t_order_two ( -- want "GS006 t_order_two .*the write at .*queries.sql:15 needs it: it sets status to 3 without comparing its old value, while 1 other write changes it too"
  id BIGINT NOT NULL PRIMARY KEY,
  status TINYINT NOT NULL DEFAULT 0 COMMENT '0 new, 3 paid, 4 shipped'
) ENGINE=InnoDB;

-- Safe twin: only inserted.
CREATE TABLE t_ticket (
  id BIGINT NOT NULL PRIMARY KEY,
  status TINYINT NOT NULL DEFAULT 0 COMMENT '0 open, 1 used, 2 void'
) ENGINE=InnoDB;

-- Safe twin: never written by the code.
CREATE TABLE t_points (
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_points CHECK (points >= 0)
) ENGINE=InnoDB;

-- An entity the code reads, changes and writes back by id (MyBatis-Plus).
CREATE TABLE t_wallet ( -- want "GS006 t_wallet .*the write at .*WalletService.java:14 needs it: it sets balance to a value the code computed, not relative to itself"
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0,
  CONSTRAINT chk_balance CHECK (balance >= 0)
) ENGINE=InnoDB;

-- A generated mapper's record written back by primary key (MyBatis Generator).
CREATE TABLE t_sku ( -- want "GS006 t_sku .*the write at .*SkuService.java:12 needs it: it sets stock to a value the code computed, not relative to itself"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_sku_stock CHECK (stock >= 0)
) ENGINE=InnoDB;

-- Safe twin: a generated mapper no code calls; its statements are the
-- generator's, not writes of the code.
CREATE TABLE t_coupon (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_coupon_stock CHECK (stock >= 0)
) ENGINE=InnoDB;

-- Decremented relative to itself, and overwritten whole by an edit form's
-- REPLACE: the form's stock, read before the decrements, wins.
CREATE TABLE t_sku_form ( -- want "GS006 t_sku_form .*the write at .*queries.sql:23 needs it: it sets stock to a value the code computed"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0,
  CONSTRAINT chk_sku_form_stock CHECK (stock >= 0)
) ENGINE=InnoDB;

-- Safe twin: a switch set from the request in one place only (an edit).
CREATE TABLE t_promo (
  id BIGINT NOT NULL PRIMARY KEY,
  status TINYINT NOT NULL DEFAULT 0 COMMENT '0 draft, 1 online, 2 offline'
) ENGINE=InnoDB;

-- GS003 by writes too: an order line's quantity is only inserted, it counts
-- nothing down; a cart line's quantity is changed in place.
CREATE TABLE t_order_line (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL
) ENGINE=InnoDB;

CREATE TABLE t_cart_line ( -- want "GS003 counter t_cart_line.quantity has no CHECK"
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL,
  version BIGINT UNSIGNED NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- An order's lines, made by an ORM guard sees no INSERT of: what was bought.
CREATE TABLE t_order_goods (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL
) ENGINE=InnoDB;

-- A counter no statement guard reads writes: its writes may be in code guard
-- cannot render, so the CHECK is still asked for.
CREATE TABLE t_shelf_stock ( -- want "GS003 counter t_shelf_stock.stock has no CHECK"
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL,
  version BIGINT UNSIGNED NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- A checkout line: inserted by the code; the generated model's full-row
-- Update writes every column of every table and shows no use of it.
CREATE TABLE t_checkout_line (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL
) ENGINE=InnoDB;
