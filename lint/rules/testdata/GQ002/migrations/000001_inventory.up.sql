CREATE TABLE t_inventory (
  id         BIGINT      NOT NULL AUTO_INCREMENT,
  product_id BIGINT      NOT NULL,
  inventory  INT         NOT NULL DEFAULT 0,
  reserved   INT         NOT NULL DEFAULT 0,
  status     VARCHAR(16) NOT NULL DEFAULT 'on',
  note       VARCHAR(255) NULL,
  version    BIGINT      NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  UNIQUE KEY uk_product (product_id),
  CONSTRAINT chk_inventory CHECK (inventory >= 0)
) ENGINE=InnoDB;
