-- A table keyed by its own booking_id owns its booking_no.
CREATE TABLE t_booking ( -- want "GS005 business key t_booking.booking_no has no UNIQUE index"
  booking_id BIGINT      NOT NULL AUTO_INCREMENT,
  booking_no VARCHAR(32) NOT NULL,
  PRIMARY KEY (booking_id)
) ENGINE=InnoDB;
