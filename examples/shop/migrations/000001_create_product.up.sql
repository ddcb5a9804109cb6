-- safe: products and their sellable stock, the guarded reference table (CHECK, version, UNIQUE sku).
CREATE TABLE t_product (
  id         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  sku        VARCHAR(64)     NOT NULL,
  name       VARCHAR(255)    NOT NULL,
  stock      INT             NOT NULL DEFAULT 0,
  version    BIGINT UNSIGNED NOT NULL DEFAULT 0,
  created_at TIMESTAMP       NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (id),
  UNIQUE KEY uk_product_sku (sku),
  CONSTRAINT chk_product_stock_nonneg CHECK (stock >= 0)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
