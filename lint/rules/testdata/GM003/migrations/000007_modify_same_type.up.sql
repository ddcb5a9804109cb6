-- Same type, different default and nullability: no copy for the type.
ALTER TABLE t_inventory MODIFY note VARCHAR(100) NOT NULL DEFAULT '', ALGORITHM=INPLACE, LOCK=NONE;
