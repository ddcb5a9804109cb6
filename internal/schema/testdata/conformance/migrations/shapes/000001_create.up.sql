-- Column, index and CHECK shapes beyond the rule fixtures, for the
-- conformance test: both builders must read them alike.
CREATE TABLE t_stock (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  sku VARCHAR(64) NOT NULL,
  qty INT NOT NULL DEFAULT 0 CHECK (qty >= 0),
  reserved INT NOT NULL DEFAULT '0' COMMENT 'units held: 0->none; it''s "\\n" safe',
  status ENUM('NEW','PAID') NOT NULL DEFAULT 'NEW',
  note VARCHAR(20) DEFAULT NULL,
  memo VARCHAR(20),
  price DECIMAL(10,2) NOT NULL DEFAULT 1.5,
  ratio FLOAT(7,2) DEFAULT 0.5,
  weight DOUBLE DEFAULT 1e20,
  share FLOAT DEFAULT 1.25,
  doc JSON,
  doc2 JSON CHECK (json_length(doc2) < 5),
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  changed_at DATETIME(3) DEFAULT CURRENT_TIMESTAMP(3),
  seen_at DATETIME DEFAULT NOW(),
  token CHAR(36) DEFAULT (uuid()),
  quoted VARCHAR(10) DEFAULT 'it''s',
  backslash VARCHAR(10) DEFAULT 'a\\b',
  empty_text VARCHAR(10) NOT NULL DEFAULT '',
  null_text VARCHAR(10) DEFAULT 'NULL',
  flags BIT(3) DEFAULT b'101',
  bin VARBINARY(8) DEFAULT 'ab',
  bin2 BINARY(2) DEFAULT 0x6162,
  absolute INT DEFAULT (abs(-2)),
  negative INT DEFAULT -3,
  boolish BOOLEAN DEFAULT TRUE,
  yr YEAR DEFAULT 2020,
  tm TIME DEFAULT '10:00:00',
  st SET('a','b') DEFAULT 'a,b',
  twice INT AS (qty * 2) VIRTUAL,
  next_qty INT AS (qty + 1) STORED,
  ext_id VARCHAR(40) NULL,
  version BIGINT UNSIGNED NOT NULL DEFAULT 0,
  KEY ix_note (note(5), qty),
  FULLTEXT KEY ft_memo (memo),
  UNIQUE KEY uk_ext (ext_id),
  UNIQUE KEY uk_sku (sku),
  UNIQUE KEY uk_note_prefix (note(3)),
  KEY (status),
  KEY (status, qty),
  CONSTRAINT chk_qty_max CHECK (qty <= 1000000),
  CHECK (reserved >= 0 AND reserved <= qty),
  CHECK (NOT (qty < 0)),
  CONSTRAINT chk_status CHECK (status IN ('NEW','PAID')),
  CONSTRAINT chk_between CHECK (price BETWEEN 0 AND 100000),
  CONSTRAINT chk_like CHECK (sku LIKE 'S%' OR sku IS NULL)
) ENGINE=InnoDB;

CREATE TABLE t_order (
  order_no VARCHAR(32) NOT NULL,
  stock_id BIGINT UNSIGNED NOT NULL,
  amount DECIMAL(12,2) NOT NULL CHECK (amount > 0),
  paid_at DATE DEFAULT '2020-01-01',
  PRIMARY KEY (order_no),
  CONSTRAINT fk_order_stock FOREIGN KEY (stock_id) REFERENCES t_stock (id),
  FOREIGN KEY (stock_id) REFERENCES t_stock (id)
) ENGINE=InnoDB;

CREATE TABLE t_serial (s SERIAL);
CREATE TABLE t_log (id INT, msg TEXT, at_year YEAR DEFAULT 2020) ENGINE=MyISAM;
CREATE TABLE t_aria (id INT PRIMARY KEY) ENGINE=Aria;
CREATE TABLE t_mem (id INT PRIMARY KEY) ENGINE=MEMORY;
CREATE SEQUENCE s_order;
CREATE VIEW v_low AS SELECT id, qty FROM t_stock WHERE qty < 5;
