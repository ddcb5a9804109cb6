-- avatar is named by the seed dump under sql/ only: a dump loads data, it is not the code.
-- nick is read, unqualified, by a join whose other table is known and has no such column.
ALTER TABLE t_user DROP COLUMN avatar; -- want "GM004 DROP COLUMN t_user.avatar destroys its values; nothing guard reads uses it"
ALTER TABLE t_user DROP COLUMN nick; -- want "GM004 DROP COLUMN t_user.nick destroys its values; the code still uses it: SELECT at .*OrderMapper.xml:9"
ALTER TABLE t_user DROP COLUMN IF EXISTS nothing_here;
