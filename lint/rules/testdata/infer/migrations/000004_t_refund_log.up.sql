CREATE TABLE t_refund_log (
  id       BIGINT        NOT NULL AUTO_INCREMENT,
  order_sn VARCHAR(64)   NOT NULL,
  amount   DECIMAL(12,2) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
