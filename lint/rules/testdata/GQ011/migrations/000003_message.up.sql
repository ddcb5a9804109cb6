CREATE TABLE t_message (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  user_id BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL DEFAULT 'unread',
  KEY idx_user (user_id)
) ENGINE=InnoDB;
