CREATE TABLE t_log (
  id         BIGINT       NOT NULL AUTO_INCREMENT,
  msg        VARCHAR(255) NOT NULL,
  created_at DATETIME     NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
