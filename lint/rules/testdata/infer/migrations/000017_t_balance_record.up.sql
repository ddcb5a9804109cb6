-- A ledger's balance is what a movement left, written once with its row:
-- not a counter, so no CHECK is asked of it.
CREATE TABLE t_balance_record (
  id      BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT        NOT NULL,
  amount  DECIMAL(12,2) NOT NULL,
  balance DECIMAL(12,2) NULL
) ENGINE=InnoDB;
