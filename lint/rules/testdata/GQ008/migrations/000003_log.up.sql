CREATE TABLE t_request_log (
  request_id VARCHAR(64) NOT NULL PRIMARY KEY,
  created_at DATETIME NOT NULL
) ENGINE=InnoDB;
