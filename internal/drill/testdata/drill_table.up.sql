-- The canonical drill table: the shape of the view every strategy of guard
-- drill works through. internal/drill/drilldao is generated from it.
CREATE TABLE guard_drill (id BIGINT UNSIGNED AUTO_INCREMENT PRIMARY KEY, stock BIGINT NOT NULL DEFAULT 0 CHECK (stock >= 0), version BIGINT UNSIGNED NOT NULL DEFAULT 0);
