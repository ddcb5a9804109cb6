package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.annotation.Version;

@TableName("t_inventory")
public class MybatisPlusInventoryDO {
    private Long id;
    private Integer inventory;
    @Version
    private Long version;
}
