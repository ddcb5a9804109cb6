-- safe: pay_no is UNIQUE and the state machine is versioned.
CREATE TABLE t_payment (
  id       BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  pay_no   VARCHAR(64)   NOT NULL,
  order_id BIGINT        NOT NULL,
  amount   DECIMAL(12,2) NOT NULL,
  status   VARCHAR(16)   NOT NULL DEFAULT 'PENDING',
  version  BIGINT        NOT NULL DEFAULT 0,
  UNIQUE KEY uk_payment_pay_no (pay_no)
) ENGINE=InnoDB;
