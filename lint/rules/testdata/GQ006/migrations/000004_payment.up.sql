CREATE TABLE t_payment (
  id       BIGINT      NOT NULL AUTO_INCREMENT,
  pay_no   VARCHAR(32) NOT NULL,
  order_no VARCHAR(32) NOT NULL,
  status   VARCHAR(16) NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_pay_no (pay_no)
) ENGINE=InnoDB;
