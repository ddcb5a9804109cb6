CREATE TABLE t_account (
  user_id BIGINT UNSIGNED NOT NULL,
  balance DECIMAL(12,2) DEFAULT 0 CHECK (balance >= 0),
  points  INT UNSIGNED DEFAULT NULL,
  PRIMARY KEY (user_id)
);
RENAME TABLE t_account TO t_wallet;
ALTER TABLE t_wallet CHANGE COLUMN points bonus_points INT NOT NULL DEFAULT 0, MODIFY balance DECIMAL(14,2) NOT NULL DEFAULT 0 CHECK (balance >= 0);
