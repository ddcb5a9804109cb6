-- MyISAM: no transactions, table locks.
CREATE TABLE t_inventory ( -- want "GS008 .*t_inventory uses ENGINE=MyISAM, not InnoDB"
  id BIGINT NOT NULL PRIMARY KEY,
  inventory INT NOT NULL DEFAULT 0
) ENGINE=MyISAM;

-- MEMORY loses every row on restart.
CREATE TABLE t_session_points ( -- want "GS008 .*ENGINE=MEMORY"
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0
) ENGINE = MEMORY;

-- InnoDB in any case, or no engine (the server default): fine.
CREATE TABLE t_stock (
  id BIGINT NOT NULL PRIMARY KEY,
  stock INT NOT NULL DEFAULT 0
) ENGINE=InnoDB;

CREATE TABLE t_seat (
  id BIGINT NOT NULL PRIMARY KEY,
  quantity INT NOT NULL DEFAULT 0
) engine=innodb;

CREATE TABLE t_category (
  id BIGINT NOT NULL PRIMARY KEY,
  title VARCHAR(100) NOT NULL DEFAULT ''
);

-- Created InnoDB, switched to Aria later: reported at the CREATE TABLE.
CREATE TABLE t_wallet ( -- want "GS008 .*t_wallet uses ENGINE=Aria"
  id BIGINT NOT NULL PRIMARY KEY,
  balance DECIMAL(12,2) NOT NULL DEFAULT 0
) ENGINE=InnoDB;

-- Created MyISAM, converted to InnoDB later: fine.
CREATE TABLE t_legacy (
  id BIGINT NOT NULL PRIMARY KEY,
  points INT NOT NULL DEFAULT 0
) ENGINE=MyISAM;
