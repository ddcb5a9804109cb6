CREATE TABLE t_pay_flow (
  id        BIGINT      NOT NULL AUTO_INCREMENT,
  ticket_sn VARCHAR(32) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;

