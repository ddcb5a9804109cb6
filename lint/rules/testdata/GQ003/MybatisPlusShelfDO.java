package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Data;

@TableName("t_shelf")
@Data
public class MybatisPlusShelfDO {
    private Long id;
    private Integer quantity;
}
