CREATE TABLE t_order (
  id        BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_no  VARCHAR(32) NOT NULL,
  user_id   BIGINT UNSIGNED NOT NULL,
  amount    DECIMAL(12,2) NOT NULL DEFAULT 0,
  state     VARCHAR(16) NOT NULL DEFAULT 'NEW',
  INDEX idx_user (user_id, state)
) ENGINE=InnoDB;

/* Payments arrive from the channel's callback, possibly twice. */
CREATE TABLE t_payment (
  id          BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  order_id    BIGINT UNSIGNED NOT NULL,
  pay_no      VARCHAR(64) NOT NULL,
  channel     VARCHAR(16) NOT NULL,
  trade_no    VARCHAR(64) NULL,
  paid_amount DECIMAL(12,2) NOT NULL,
  CONSTRAINT fk_payment_order FOREIGN KEY (order_id) REFERENCES t_order (id)
) ENGINE=InnoDB;

INSERT INTO t_order (order_no, user_id) VALUES ('seed', 1);
