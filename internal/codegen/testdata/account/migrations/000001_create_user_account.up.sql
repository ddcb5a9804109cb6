CREATE TABLE tbl_user_account (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  api_url VARCHAR(255) NULL,
  balance BIGINT NOT NULL DEFAULT 0,
  frozen_points INT UNSIGNED NULL,
  state TINYINT NOT NULL DEFAULT 0,
  payload JSON NULL,
  avatar BLOB NULL,
  ratio DOUBLE NULL,
  birthday DATE NULL,
  version INT NOT NULL DEFAULT 0,
  UNIQUE KEY uk_user (user_id),
  CONSTRAINT chk_balance CHECK (balance >= 0),
  CONSTRAINT chk_frozen CHECK (frozen_points >= 0)
) ENGINE=InnoDB;
