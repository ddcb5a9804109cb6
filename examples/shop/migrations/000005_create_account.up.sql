-- safe: the balance can never go negative (CHECK) and every write is versioned.
CREATE TABLE t_account (
  id      BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT        NOT NULL,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0.00 CHECK (balance >= 0),
  version BIGINT        NOT NULL DEFAULT 0,
  UNIQUE KEY uk_account_user (user_id)
) ENGINE=InnoDB;
