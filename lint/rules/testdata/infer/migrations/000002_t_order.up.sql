-- The order owns order_sn; status takes more values than on/off. ship_sn
-- and express_no are the carrier's numbers for a parcel, phone_no a person's:
-- none is a key of the order. Its one write of status is a bare transition
-- (GQ005 at the statement), not a read-modify-write: no version column asked.
CREATE TABLE t_order ( -- want "GS005 business key t_order.order_sn .*inferred business key"
  id       BIGINT      NOT NULL AUTO_INCREMENT,
  order_sn VARCHAR(64) NOT NULL,
  ship_sn    VARCHAR(64) NULL,
  express_no VARCHAR(64) NULL,
  phone_no   VARCHAR(32) NULL,
  status   INT         NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=InnoDB;
