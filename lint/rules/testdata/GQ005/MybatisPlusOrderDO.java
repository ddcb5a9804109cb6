package shop.plus.model;

import com.baomidou.mybatisplus.annotation.TableName;
import lombok.Data;
import lombok.experimental.Accessors;

@TableName("t_order")
@Data
@Accessors(chain = true)
public class MybatisPlusOrderDO {
    private Long id;
    private String orderNo;
    private String status;
    private String note;
}
