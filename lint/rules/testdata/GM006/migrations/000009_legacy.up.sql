RENAME TABLE t_legacy TO t_archive; -- want "GM006 RENAME TABLE t_legacy TO t_archive: .*nothing guard reads uses it"
