CREATE TABLE t_account (
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(18, 2) NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  CONSTRAINT balance_non_negative CHECK (balance >= 0)
) ENGINE=InnoDB;
