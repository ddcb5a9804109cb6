package com.example.shop.entity;

import com.baomidou.mybatisplus.annotation.TableField;
import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Data;
import lombok.experimental.Accessors;

/** Per-warehouse inventory; its table has no version column. */
@TableName("t_inventory")
@Data
@Accessors(chain = true)
public class InventoryDO {
    private Long id;
    private Long productId;
    private Integer warehouseId;
    @TableField("inventory")
    private Integer onHand;
}
