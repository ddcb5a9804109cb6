package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;

/** The same table without @Version: updateById compares nothing. */
@TableName("t_inventory")
public class MybatisPlusReservedDO {
    private Long id;
    private Integer inventory;
}
