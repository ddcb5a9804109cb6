-- Created earlier in the same file: no row exists yet, nothing depends on data.
CREATE TABLE t_coupon (
  id BIGINT NOT NULL PRIMARY KEY,
  code VARCHAR(64) NULL,
  amount INT NULL
) ENGINE=InnoDB;
ALTER TABLE t_coupon MODIFY COLUMN code VARCHAR(32) NOT NULL, ALGORITHM=COPY, LOCK=SHARED;
ALTER TABLE t_coupon ADD UNIQUE KEY uk_code (code), ALGORITHM=INPLACE, LOCK=NONE;
ALTER TABLE t_coupon ADD CONSTRAINT chk_amount CHECK (amount >= 0);
CREATE UNIQUE INDEX ux_amount ON t_coupon (amount);
