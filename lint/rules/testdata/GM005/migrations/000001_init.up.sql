CREATE TABLE t_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  sku_no VARCHAR(32) NOT NULL,
  stock INT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_stock_nonneg CHECK (stock >= 0),
  UNIQUE KEY uk_sku_no (sku_no)
) ENGINE=InnoDB;
CREATE TABLE t_wallet (
  id BIGINT NOT NULL PRIMARY KEY,
  pay_no VARCHAR(32) NOT NULL,
  balance BIGINT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT chk_balance CHECK (balance >= 0),
  UNIQUE KEY uk_pay_no (pay_no)
) ENGINE=InnoDB;
