-- A banner's status: its name says state, nothing the code does says more.
CREATE TABLE t_banner (
  id BIGINT NOT NULL PRIMARY KEY,
  status INT NOT NULL DEFAULT 0,
  title VARCHAR(64) NOT NULL DEFAULT ''
) ENGINE=InnoDB;
