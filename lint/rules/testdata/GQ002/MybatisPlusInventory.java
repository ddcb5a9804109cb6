package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableField;
import com.baomidou.mybatisplus.annotation.TableName;

/** The MyBatis-Plus entity of t_inventory: its stock property is the inventory column. */
@TableName("t_inventory")
public class MybatisPlusInventory {
    private Long id;
    private Long productId;
    @TableField("inventory")
    private Integer stock;
    private Long version;
}
