-- A business key with no index at all.
CREATE TABLE t_payment ( -- want "GS005 .*business key t_payment.pay_no has no UNIQUE index on exactly \\(pay_no\\)$"
  id BIGINT NOT NULL PRIMARY KEY,
  pay_no VARCHAR(64) NOT NULL,
  amount DECIMAL(12,2) NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- A plain (non-unique) index does not make it unique.
CREATE TABLE t_refund ( -- want "GS005 .*business key t_refund.refund_no"
  id BIGINT NOT NULL PRIMARY KEY,
  refund_no VARCHAR(64) NOT NULL,
  KEY ix_refund_no (refund_no)
) ENGINE=InnoDB;

-- UNIQUE KEY on the column, or a column-level UNIQUE: unique.
CREATE TABLE t_order (
  id BIGINT NOT NULL PRIMARY KEY,
  order_no VARCHAR(64) NOT NULL,
  request_id VARCHAR(64) NOT NULL UNIQUE,
  UNIQUE KEY uk_order_no (order_no)
) ENGINE=InnoDB;

-- A unique index on (out_trade_no, channel) does not count for out_trade_no alone.
CREATE TABLE t_notify ( -- want "GS005 .*t_notify.out_trade_no .*the unique index uk_trade_channel on \\(out_trade_no, channel\\) allows duplicates"
  id BIGINT NOT NULL PRIMARY KEY,
  out_trade_no VARCHAR(64) NOT NULL,
  channel VARCHAR(16) NOT NULL,
  UNIQUE KEY uk_trade_channel (out_trade_no, channel)
) ENGINE=InnoDB;

-- The unique index arrives in a later migration.
CREATE TABLE t_invoice (
  id BIGINT NOT NULL PRIMARY KEY,
  invoice_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

-- A business key that is the primary key is unique.
CREATE TABLE t_ticket (
  ticket_no VARCHAR(64) NOT NULL PRIMARY KEY,
  title VARCHAR(100) NOT NULL DEFAULT ''
) ENGINE=InnoDB;

-- policies.toml: unique = [["channel", "trade_no"]] with keys = []; no index on the pair.
CREATE TABLE t_channel_pay ( -- want "GS005 .*policy unique set \\(channel, trade_no\\) of t_channel_pay has no UNIQUE index"
  id BIGINT NOT NULL PRIMARY KEY,
  channel VARCHAR(16) NOT NULL,
  trade_no VARCHAR(64) NOT NULL,
  KEY ix_channel_trade (channel, trade_no)
) ENGINE=InnoDB;

-- The same set, unique in another column order: satisfied.
CREATE TABLE t_channel_ok (
  id BIGINT NOT NULL PRIMARY KEY,
  channel VARCHAR(16) NOT NULL,
  trade_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_trade_channel (trade_no, channel)
) ENGINE=InnoDB;

-- Two sets, neither unique: two findings; a unique index on a superset does not count.
CREATE TABLE t_transfer ( -- want "GS005 .*set \\(src, dst\\)" "GS005 .*set \\(batch_id\\)"
  id BIGINT NOT NULL PRIMARY KEY,
  src BIGINT NOT NULL,
  dst BIGINT NOT NULL,
  batch_id BIGINT NOT NULL,
  UNIQUE KEY uk_all (src, dst, batch_id)
) ENGINE=InnoDB;

-- A set naming a column the table lacks is a policy mistake, said once.
CREATE TABLE t_typo ( -- want "GS005 .*policy unique set \\(idem_key\\) of t_typo names columns the table lacks: idem_key"
  id BIGINT NOT NULL PRIMARY KEY,
  idem VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

-- A glob entry skips the tables that do not carry its columns.
CREATE TABLE t_log_a (
  id BIGINT NOT NULL PRIMARY KEY,
  msg VARCHAR(100) NOT NULL DEFAULT ''
) ENGINE=InnoDB;

CREATE TABLE t_log_b ( -- want "GS005 .*policy unique set \\(msg_id\\) of t_log_b"
  id BIGINT NOT NULL PRIMARY KEY,
  msg_id VARCHAR(64) NOT NULL
) ENGINE=InnoDB;
