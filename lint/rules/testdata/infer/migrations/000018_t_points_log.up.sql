-- A ledger whose balance the code does decrement (queries.sql) is a counter
-- like any other.
CREATE TABLE t_points_log ( -- want "GS003 counter t_points_log.balance has no CHECK"
  id      BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  balance INT    NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0
) ENGINE=InnoDB;
