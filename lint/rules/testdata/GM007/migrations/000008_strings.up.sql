ALTER TABLE t_user CHANGE COLUMN nick nickname CHAR(10) NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 ALTER TABLE t_user CHANGE COLUMN nick nickname char\\(10\\): rows whose nick is longer than 10 characters \\(it was char\\(20\\)\\).*CHAR_LENGTH\\(`nick`\\) > 10 and"
ALTER TABLE t_user MODIFY COLUMN bio VARCHAR(1000) NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose bio is longer than 1000 characters \\(it was text\\).*CHAR_LENGTH\\(`bio`\\) > 1000 and"
ALTER TABLE t_user MODIFY COLUMN avatar VARBINARY(100) NULL, ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*rows whose avatar is longer than 100 bytes .*LENGTH\\(`avatar`\\) > 100 and"
-- Narrowed and made NOT NULL at once: one finding that counts both.
ALTER TABLE t_user MODIFY COLUMN email VARCHAR(100) NOT NULL DEFAULT '', ALGORITHM=COPY, LOCK=SHARED; -- want "GM007 .*longer than 100 characters \\(it was text\\).*; rows where email is NULL \\(it was nullable\\).*counts the rows where CHAR_LENGTH\\(`email`\\) > 100 OR `email` IS NULL and"
-- The same type from VARCHAR to TEXT depends on the character set: not judged.
ALTER TABLE t_user MODIFY COLUMN name TINYTEXT NOT NULL, ALGORITHM=COPY, LOCK=SHARED;
