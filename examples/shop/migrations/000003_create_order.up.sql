-- unsafe GS005: order_no is a business key with a plain index, so a retried request can create the order twice.
CREATE TABLE t_order (
  id         BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_no   VARCHAR(32)   NOT NULL,
  user_id    BIGINT        NOT NULL,
  product_id BIGINT        NOT NULL,
  item_count INT           NOT NULL CHECK (item_count >= 0),
  amount     DECIMAL(12,2) NOT NULL,
  status     VARCHAR(16)   NOT NULL DEFAULT 'NEW',
  remark     VARCHAR(255)  NULL,
  version    BIGINT        NOT NULL DEFAULT 0,
  KEY idx_order_no (order_no),
  KEY idx_order_user (user_id)
) ENGINE=InnoDB;
