-- A new table holds no rows: nothing here depends on data.
CREATE TABLE t_user (
  id BIGINT NOT NULL,
  name VARCHAR(64) NOT NULL,
  nick CHAR(20) NULL,
  email VARCHAR(255) NULL,
  bio TEXT NULL,
  avatar VARBINARY(200) NULL,
  age INT NULL,
  points INT NOT NULL DEFAULT 0,
  big BIGINT UNSIGNED NOT NULL DEFAULT 0,
  balance DECIMAL(10,2) NOT NULL DEFAULT 0,
  status ENUM('new','active','closed') NOT NULL DEFAULT 'new',
  tags SET('a','b','c') NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
