CREATE TABLE t_order (
  order_id BIGINT NOT NULL,
  order_no VARCHAR(32) NOT NULL,
  status VARCHAR(16) NOT NULL DEFAULT 'new',
  pay_state VARCHAR(16) NULL,
  amount DECIMAL(12,2) NOT NULL,
  PRIMARY KEY (order_id),
  UNIQUE KEY uk_order_no (order_no)
) ENGINE=InnoDB;
