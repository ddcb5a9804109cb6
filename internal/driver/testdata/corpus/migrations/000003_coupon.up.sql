CREATE TABLE t_coupon_grant (
  id BIGINT NOT NULL AUTO_INCREMENT,
  request_id VARCHAR(64) NOT NULL,
  user_id BIGINT NOT NULL,
  state TINYINT NOT NULL DEFAULT 0,
  version BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (id),
  UNIQUE INDEX uk_request (request_id)
) ENGINE=InnoDB;
