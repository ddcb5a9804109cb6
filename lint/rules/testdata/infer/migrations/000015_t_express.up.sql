-- A TINYINT(1) status that nothing enumerates is MySQL's BOOLEAN, an on/off
-- switch: no version column is asked of the table.
CREATE TABLE t_express (
  id     BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
  name   VARCHAR(64) NOT NULL,
  status TINYINT(1)  NOT NULL DEFAULT 0 COMMENT 'available'
) ENGINE=InnoDB;
