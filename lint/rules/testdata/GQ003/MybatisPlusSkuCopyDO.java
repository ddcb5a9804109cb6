package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Data;

@TableName("t_sku_copy")
@Data
public class MybatisPlusSkuCopyDO {
    private Long id;
    private String name;
    private Integer stock;
}
