-- use_status matches no state pattern: an UPDATE conditions on it, so it is
-- a state machine, and its table needs a version column.
CREATE TABLE t_coupon_history ( -- want "GS006 t_coupon_history has counter or state columns [(]use_status[)] .*use_status: inferred state: compared and set by one UPDATE at testdata/infer/queries.sql:"
  id         BIGINT  NOT NULL AUTO_INCREMENT,
  coupon_id  BIGINT  NOT NULL,
  member_id  BIGINT  NOT NULL,
  use_status TINYINT NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
