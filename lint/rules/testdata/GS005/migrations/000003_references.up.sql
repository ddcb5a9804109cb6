-- References point at the key another table mints: only the minting table
-- needs the UNIQUE index.
CREATE TABLE t_pay_record ( -- want "GS005 business key t_pay_record.pay_serial_no"
  id BIGINT NOT NULL PRIMARY KEY,
  pay_serial_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

-- A chargeback names the payment it reverses (t_payment of 000001 mints
-- pay_no): a reference, not its key.
CREATE TABLE t_chargeback ( -- want "GS005 business key t_chargeback.chargeback_no"
  id BIGINT NOT NULL PRIMARY KEY,
  chargeback_no VARCHAR(64) NOT NULL,
  pay_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

-- Shards of the minting table each need the index; shards of a child do not.
CREATE TABLE t_trade_0 ( -- want "GS005 business key t_trade_0.trade_no"
  id BIGINT NOT NULL PRIMARY KEY,
  trade_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

CREATE TABLE t_trade_log_0 (
  id BIGINT NOT NULL PRIMARY KEY,
  trade_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;
