-- Changing only the default character set touches no row.
ALTER TABLE t_inventory DEFAULT CHARACTER SET utf8mb4, ALGORITHM=INPLACE, LOCK=NONE;
