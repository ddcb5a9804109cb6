-- Stock per product. The first version relied on a Redis lock alone.
CREATE TABLE IF NOT EXISTS `shop`.`t_inventory` (
  `id`         BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
  `product_id` BIGINT UNSIGNED NOT NULL,
  `inventory`  INT NOT NULL DEFAULT '0',
  `status`     ENUM('ON_SALE','OFF_SALE') NOT NULL DEFAULT 'ON_SALE',
  `updated_at` TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
  PRIMARY KEY (`id`),
  KEY (`product_id`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
