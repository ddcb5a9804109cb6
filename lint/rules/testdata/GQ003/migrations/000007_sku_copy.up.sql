-- A stock that requests edit while orders decrement it.
CREATE TABLE t_sku_copy (
  id     BIGINT      NOT NULL PRIMARY KEY,
  name   VARCHAR(64) NULL,
  stock  INT         NOT NULL DEFAULT 0,
  CONSTRAINT chk_sku_copy_stock CHECK (stock >= 0)
) ENGINE=InnoDB;
