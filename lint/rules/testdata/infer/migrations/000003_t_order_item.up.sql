-- Child tables reference the order's key: beside order_id, or repeating
-- the owner's column. Neither needs it unique.
CREATE TABLE t_order_item (
  id       BIGINT      NOT NULL AUTO_INCREMENT,
  order_id BIGINT      NOT NULL,
  order_sn VARCHAR(64) NOT NULL,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
