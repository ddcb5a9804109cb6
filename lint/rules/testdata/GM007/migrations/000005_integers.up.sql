ALTER TABLE t_user MODIFY COLUMN points SMALLINT NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*MODIFY COLUMN points smallint\\(6\\): rows whose points lies outside -32768..32767 \\(it was bigint\\(20\\)\\) fail it, or are clamped .*counts the rows where `points` < -32768 OR `points` > 32767 and"
ALTER TABLE t_user MODIFY COLUMN points SMALLINT UNSIGNED NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*points is negative \\(it was smallint\\(6\\)\\) fail it, or are clamped .*counts the rows where `points` < 0 and"
ALTER TABLE t_user MODIFY COLUMN big BIGINT NOT NULL DEFAULT 0, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose big is above 9223372036854775807 \\(it was bigint\\(20\\) unsigned\\).*counts the rows where `big` > 9223372036854775807 and"
-- Unsigned to a signed type twice as wide holds every value.
ALTER TABLE t_user MODIFY COLUMN points INT NULL, ALGORITHM=COPY, LOCK=SHARED;
