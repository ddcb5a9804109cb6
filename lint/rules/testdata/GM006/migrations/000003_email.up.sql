ALTER TABLE t_user CHANGE email mail VARCHAR(128) NULL; -- want "GM006 renames t_user.email to mail: .*nothing guard reads uses it"
