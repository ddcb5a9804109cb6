-- vschema.json shards t_payment by user_id: UNIQUE (pay_no) is enforced by
-- each shard on its own rows, so two shards can each take the same pay_no.
CREATE TABLE t_payment ( -- want "GS005 business key t_payment.pay_no is unique per shard only: its keyspace shards t_payment by \\(user_id\\) \\(vindex hash\\), so the UNIQUE index uk_pay_no on \\(pay_no\\) lets every shard hold the same pay_no once$"
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  pay_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_pay_no (pay_no)
) ENGINE=InnoDB;

-- The key is the pair, and the pair holds user_id: equal pairs are on one
-- shard, so the index holds across the keyspace, and it is what the policy asks.
CREATE TABLE t_user_payment (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  pay_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_user_pay_no (user_id, pay_no)
) ENGINE=InnoDB;

-- A unique lookup vindex t_refund owns refuses the second refund_no in any shard.
CREATE TABLE t_refund (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  refund_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_refund_no (refund_no)
) ENGINE=InnoDB;

-- So it does without an index of the table: the lookup table's primary key is it.
CREATE TABLE t_return (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  return_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

-- Sharded by the key itself: equal order_no, one shard.
CREATE TABLE t_order (
  id BIGINT NOT NULL PRIMARY KEY,
  order_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_order_no (order_no)
) ENGINE=InnoDB;

-- The lookup on out_trade_no is t_trade_order's: t_notify's inserts do not write it.
CREATE TABLE t_notify ( -- want "GS005 business key t_notify.out_trade_no is unique per shard only"
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  out_trade_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_out_trade_no (out_trade_no)
) ENGINE=InnoDB;

CREATE TABLE t_trade_order (
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  out_trade_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_out_trade_no (out_trade_no)
) ENGINE=InnoDB;

-- A lookup still being backfilled (write_only) refuses nothing yet.
CREATE TABLE t_invoice ( -- want "GS005 business key t_invoice.invoice_no is unique per shard only: .*; the unique lookup vindex t_invoice_invoice_no_lookup on \\(invoice_no\\) is write_only \\(still being backfilled\\)"
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  invoice_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_invoice_no (invoice_no)
) ENGINE=InnoDB;

-- No index at all: the index the fix adds would hold per shard only, and the finding says so.
CREATE TABLE t_trade ( -- want "GS005 business key t_trade.trade_no has no UNIQUE index on exactly \\(trade_no\\); its keyspace shards t_trade by \\(user_id\\) \\(vindex hash\\), so such an index would hold per shard only$"
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  trade_no VARCHAR(64) NOT NULL
) ENGINE=InnoDB;

-- A policy unique set is judged as a business key is.
CREATE TABLE t_transfer ( -- want "GS005 policy unique set \\(src, dst\\) of t_transfer is unique per shard only: .* lets every shard hold the same \\(src, dst\\) once$"
  id BIGINT NOT NULL PRIMARY KEY,
  user_id BIGINT NOT NULL,
  src BIGINT NOT NULL,
  dst BIGINT NOT NULL,
  UNIQUE KEY uk_src_dst (src, dst)
) ENGINE=InnoDB;

-- A reference table is whole on every shard.
CREATE TABLE t_channel (
  id BIGINT NOT NULL PRIMARY KEY,
  channel_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_channel_no (channel_no)
) ENGINE=InnoDB;

-- A table the VSchema does not list is not known to be sharded.
CREATE TABLE t_ledger (
  id BIGINT NOT NULL PRIMARY KEY,
  ledger_no VARCHAR(64) NOT NULL,
  UNIQUE KEY uk_ledger_no (ledger_no)
) ENGINE=InnoDB;
