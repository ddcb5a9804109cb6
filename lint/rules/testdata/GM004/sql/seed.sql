CREATE TABLE t_user (id BIGINT NOT NULL PRIMARY KEY, nick VARCHAR(64) NULL, avatar VARCHAR(255) NULL);
INSERT INTO t_user (id, nick, avatar) VALUES (1, 'a', 'x.png');
