-- The same declaration whose comment lists three states is a state machine;
-- no statement of the code writes the table, so it needs no version column.
CREATE TABLE t_coupon_user (
  id     BIGINT     NOT NULL AUTO_INCREMENT PRIMARY KEY,
  status TINYINT(1) NOT NULL DEFAULT 0 COMMENT '0: unused, 1: used, 2: expired'
) ENGINE=InnoDB;
