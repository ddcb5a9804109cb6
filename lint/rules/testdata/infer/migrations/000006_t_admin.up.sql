-- An admin account's status is an on/off switch: the code only writes it
-- from a parameter and never conditions on it. Not a state machine, so no
-- version column is asked for.
CREATE TABLE t_admin (
  id     BIGINT      NOT NULL AUTO_INCREMENT,
  name   VARCHAR(64) NOT NULL,
  status INT         NOT NULL DEFAULT 1,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
