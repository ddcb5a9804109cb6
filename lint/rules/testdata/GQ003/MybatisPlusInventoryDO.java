package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableField;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.annotation.Version;
import lombok.Data;
import lombok.experimental.Accessors;

/** Lombok chain setters; the version is compared by the OptimisticLockerInnerInterceptor. */
@TableName("t_inventory")
@Data
@Accessors(chain = true)
public class MybatisPlusInventoryDO {
    @TableId
    private Long id;
    @TableField("inventory")
    private Integer stock;
    @TableField(exist = false)
    private Integer display;
    @Version
    private Long version;
}
