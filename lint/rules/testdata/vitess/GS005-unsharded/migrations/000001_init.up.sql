-- An unsharded keyspace is one server: the UNIQUE index holds.
CREATE TABLE t_payment (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  pay_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_pay_no (pay_no)
) ENGINE=InnoDB;

-- Without an index the finding is the one of any server, with no word of shards.
CREATE TABLE t_trade ( -- want "GS005 business key t_trade.trade_no has no UNIQUE index on exactly \\(trade_no\\)$"
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  trade_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;
