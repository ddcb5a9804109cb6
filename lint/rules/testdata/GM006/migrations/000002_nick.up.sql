ALTER TABLE t_user RENAME COLUMN nick TO nickname; -- want "GM006 renames t_user.nick to nickname: .*the code still uses nick: INSERT at .*users.go:8, SELECT at .*UserMapper.xml:5"
