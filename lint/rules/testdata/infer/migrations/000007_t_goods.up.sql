-- sell_status is only a filter of the stock update and is_deleted a soft
-- delete mark: neither is a state machine, so t_goods needs no version
-- column for them, and their plain writes are not transitions.
CREATE TABLE t_goods (
  id          BIGINT     NOT NULL AUTO_INCREMENT,
  sell_status TINYINT    NOT NULL DEFAULT 0,
  is_deleted  TINYINT    NOT NULL DEFAULT 0,
  stock       INT        NOT NULL DEFAULT 0,
  version     BIGINT     NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  CONSTRAINT chk_goods_stock CHECK (stock >= 0)
) ENGINE=InnoDB;
