-- refund_status takes three values in the code: a state machine, so the
-- table needs a version column. show_status is only ever 0 or 1.
CREATE TABLE t_refund_log ( -- want "GS006 t_refund_log has counter or state columns [(]refund_status[)] .*refund_status: inferred state: set to 3 at testdata/infer/queries.sql:"
  id       BIGINT        NOT NULL AUTO_INCREMENT,
  order_sn VARCHAR(64)   NOT NULL,
  amount   DECIMAL(12,2) NOT NULL,
  refund_status INT      NOT NULL DEFAULT 0,
  show_status   INT      NOT NULL DEFAULT 1,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
