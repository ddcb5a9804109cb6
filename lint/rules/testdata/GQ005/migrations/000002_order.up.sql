CREATE TABLE t_order (
  id         BIGINT        NOT NULL AUTO_INCREMENT,
  order_no   VARCHAR(32)   NOT NULL,
  product_id BIGINT        NOT NULL,
  quantity   INT           NOT NULL,
  amount     DECIMAL(12,2) NOT NULL,
  status     VARCHAR(16)   NOT NULL DEFAULT 'pending',
  updated_at DATETIME      NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_order_no (order_no),
  CONSTRAINT chk_quantity CHECK (quantity >= 0)
) ENGINE=InnoDB;
