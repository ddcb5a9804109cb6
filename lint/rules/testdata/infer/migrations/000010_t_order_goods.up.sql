-- A line of an order that names the goods it sells: its goods_sn points at
-- the goods row (beside goods_id), though the table's name ends with goods.
CREATE TABLE t_order_goods (
  id       BIGINT      NOT NULL AUTO_INCREMENT,
  goods_id BIGINT      NOT NULL,
  goods_sn VARCHAR(32) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
