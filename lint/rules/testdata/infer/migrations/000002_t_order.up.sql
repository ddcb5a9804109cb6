-- The order owns order_sn; status takes more values than on/off.
CREATE TABLE t_order ( -- want "GS005 business key t_order.order_sn .*inferred business key" "GS006 t_order has counter or state columns [(]status[)]"
  id       BIGINT      NOT NULL AUTO_INCREMENT,
  order_sn VARCHAR(64) NOT NULL,
  status   INT         NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
