-- The same declaration whose comment lists three states is a state machine.
CREATE TABLE t_coupon_user ( -- want "GS006 t_coupon_user has counter or state columns [(]status[)] but no version column"
  id     BIGINT     NOT NULL AUTO_INCREMENT PRIMARY KEY,
  status TINYINT(1) NOT NULL DEFAULT 0 COMMENT '0: unused, 1: used, 2: expired'
) ENGINE=InnoDB;
