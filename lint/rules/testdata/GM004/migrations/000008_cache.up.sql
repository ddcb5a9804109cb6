DROP TABLE t_cache; -- want "GM004 DROP TABLE t_cache destroys its rows: the same file creates it again, empty"
CREATE TABLE t_cache (id BIGINT NOT NULL PRIMARY KEY, v VARCHAR(128) NULL) ENGINE=InnoDB;
