CREATE TABLE `shop`.`t_sku_stock` (
  `id` bigint unsigned NOT NULL AUTO_INCREMENT COMMENT 'pk',
  `sku_code` varchar(64) COLLATE utf8mb4_bin NOT NULL,
  `available_stock` int NOT NULL DEFAULT '0',
  `locked_stock` int NOT NULL DEFAULT '0',
  `version` bigint unsigned NOT NULL DEFAULT '0',
  PRIMARY KEY (`id`),
  UNIQUE KEY `uk_sku_code` (`sku_code`),
  CONSTRAINT `chk_available` CHECK ((`available_stock` >= 0)),
  CONSTRAINT `chk_locked` CHECK ((`locked_stock` >= 0))
) ENGINE=InnoDB AUTO_INCREMENT=1001 DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci COMMENT='sku stock';
